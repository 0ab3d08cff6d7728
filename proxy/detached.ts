// A string kept for long must not keep the text it was read from. V8 makes a slice of a string (a header value
// read out of a request's head, a regex capture, a split part) point into the whole: a token the proxy remembers
// would keep the head it came in (up to 16 KiB), so a client sending a new token with padded heads could make
// the 10,000 remembered tokens hold 160 MB, and every remembered head costs the collector as long as it is kept.

/**
 * A copy of `s` that shares nothing with the string it was sliced from. Joining makes a new string of its own;
 * the slice then points into that copy only. (Short strings are copied outright by V8.)
 */
export const detached = (s: string): string => (" " + s).slice(1);
