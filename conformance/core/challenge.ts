// Whether a WWW-Authenticate header offers the Bearer scheme: the header may list several challenges, in any order
// (RFC 9110 11.6.1), each with its parameters (DPoP algs="…", Bearer realm="…", error="invalid_token").
export const namesBearerChallenge = (header: string | undefined): boolean => header !== undefined && /(^|,)\s*Bearer(\s|,|$)/i.test(header);
