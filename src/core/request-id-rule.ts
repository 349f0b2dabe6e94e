/**
 * What a request's id may be to be kept, whoever made it (a client's X-Request-Id, an engine's id
 * of a request): 1 to 128 letters, digits and `._:/+=@-` (a UUID, a trace id, a proxy's id).
 * Anything else (empty, too long, spaces, controls) is not kept, so that an id is safe in a log
 * line, a header, a message and a page.
 */
export function wellFormedId(id: string): boolean {
  return WELL_FORMED.test(id)
}

const WELL_FORMED = /^[A-Za-z0-9._:/+=@-]{1,128}$/
