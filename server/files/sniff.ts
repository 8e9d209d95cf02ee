import { fileTypeFromBuffer } from 'file-type';

/**
 * The content type of uploaded bytes, read from the bytes themselves (magic numbers), never from what
 * the client claims. Text without a signature is text/plain when it is valid UTF-8 without control
 * characters; anything else unknown is application/octet-stream.
 */
export async function sniffContentType(bytes: Buffer): Promise<string> {
  const found = await fileTypeFromBuffer(bytes);
  if (found) return found.mime;
  const sample = bytes.subarray(0, 8192);
  const controls = /[\x00-\x08\x0E-\x1F]/;
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(sample, { stream: true }); // a cut character at the end is fine
    if (!controls.test(text)) return 'text/plain';
  } catch {
    // not UTF-8
  }
  return 'application/octet-stream';
}
