/** Limits shared by more than one part of the service, defined once. */

/** The spec's upload limit: a 20 MB file, refused while streaming, before it is buffered. */
export const MAX_UPLOAD_BYTES = 20 * 1024 * 1024;
