/** An expected end of processing: the document is marked failed with this message, shown to its owner. */
export class IngestionFailure extends Error {
  constructor(message: string) {
    super(message);
    this.name = "IngestionFailure";
  }
}
