/**
 * `@session:<profile>/<id>` is how Hermes points at a session: the desktop composer emits it when a session is
 * dragged into a message and renders it as a link titled with the session's title; the agent writes it to refer
 * the user to a session. Session ids never contain "/", so a slash always separates the profile from the id.
 */
export const SESSION_LINK_PREFIX = "@session:";

/**
 * The link for a session. The profile is left out when it cannot be named confidently ("" or "custom"): a bare id
 * still resolves, it just cannot tell profiles apart.
 */
export function sessionLink(sessionId: string, profile: string): string {
  const name = profile.trim();
  return name && name !== "custom"
    ? `${SESSION_LINK_PREFIX}${name}/${sessionId}`
    : `${SESSION_LINK_PREFIX}${sessionId}`;
}

export interface SessionReference {
  readonly sessionId: string;
  /** The profile named by the reference, or by the explicit `profile` argument (which wins). */
  readonly profile?: string;
}

/**
 * A session_id argument as a model may pass it: a plain id, `profile/id`, or a whole link `@session:profile/id`
 * (or `@session:id`) copied from a message. An explicit `profile` argument wins over one embedded in the value.
 */
export function parseSessionReference(value: string, profile?: string): SessionReference {
  let id = value.trim();
  if (id.startsWith(SESSION_LINK_PREFIX)) id = id.slice(SESSION_LINK_PREFIX.length);
  const explicit = profile?.trim() ? profile.trim() : undefined;
  const slash = id.indexOf("/");
  if (slash >= 0 && id.slice(slash + 1) !== "") {
    const embedded = id.slice(0, slash);
    id = id.slice(slash + 1);
    return { sessionId: id, ...((explicit ?? embedded) ? { profile: explicit ?? embedded } : {}) };
  }
  return { sessionId: id, ...(explicit ? { profile: explicit } : {}) };
}
