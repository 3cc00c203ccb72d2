// What jwt-verifier.ts uses of jose, which it imports on first use. Named here (not `import('jose')`)
// so that a bundler building a worker from the unbundled runtime keeps only these, not all of jose.
export { createRemoteJWKSet, customFetch, decodeJwt, decodeProtectedHeader, errors, jwksCache, jwtVerify } from 'jose';
