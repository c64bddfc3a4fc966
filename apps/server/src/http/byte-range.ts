/** One byte range of a file, both ends inclusive (as in Content-Range). */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * Reads a `Range` header against a file of `size` bytes (RFC 9110 §14): one range, `bytes=a-b`, `bytes=a-` or
 * `bytes=-n`. Returns null to serve the whole file (no header, another unit, a malformed value, or several
 * ranges — answering those with the whole file is allowed and keeps us out of multipart/byteranges), or
 * 'unsatisfiable' when the range lies wholly past the end (416).
 */
export function parseRange(header: string | undefined, size: number): ByteRange | 'unsatisfiable' | null {
  if (!header) return null;
  const m = /^bytes=[ \t]*(\d*)-(\d*)[ \t]*$/i.exec(header.trim());
  if (!m) return null;
  const [, first = '', last = ''] = m;
  if (first === '' && last === '') return null;
  if (first === '') {
    // Suffix: the last n bytes (all of a shorter file); a zero-length suffix selects nothing.
    const n = Number(last);
    if (n === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - n), end: size - 1 };
  }
  const start = Number(first);
  if (last !== '' && Number(last) < start) return null;
  if (start >= size) return 'unsatisfiable';
  return { start, end: last === '' ? size - 1 : Math.min(Number(last), size - 1) };
}
