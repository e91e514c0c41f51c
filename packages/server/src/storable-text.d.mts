export declare const isWellFormedText: (value: string) => boolean;
export declare function storableText(value: string): string;
export declare function storableValue(value: unknown): unknown;
