import { BlockList, isIP } from "node:net";
import { addressBlockReason, urlBlockReason } from "../../web/url-safety.js";

/*
 * The SSRF policy of the web tools (agent/web/url-safety.ts) for the browser, with one allowance of its own: loopback
 * addresses when `browser.allow_localhost` is on (the user's dev server). It is enforced for every request a page
 * makes by the guard proxy (guard-proxy.ts), which resolves each host and dials only an address that passed; the
 * navigate tool also asks it first, to refuse a URL before a browser starts.
 */

export interface RequestPolicy {
  /** `browser.allow_localhost`: loopback addresses (the user's dev server) may be loaded. */
  readonly allowLocalhost: boolean;
  /** `browser.allow_private_urls`: every private address may be loaded (cloud metadata never). */
  readonly allowPrivateUrls: boolean;
}

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet("127.0.0.0", 8, "ipv4");
LOOPBACK.addAddress("::1", "ipv6");

/** Names that mean this machine (RFC 6761: `localhost` and everything under it). */
const LOCALHOST_NAME = /^(?:[^.]+\.)*localhost\.?$/i;

function isLoopback(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, "");
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(bare)?.[1];
  if (mapped) return LOOPBACK.check(mapped, "ipv4");
  const version = isIP(bare);
  return version !== 0 && LOOPBACK.check(bare, version === 4 ? "ipv4" : "ipv6");
}

/** Why `address` (an IP) may not be dialled under `policy`, or undefined when it may. */
export function addressReason(address: string, policy: RequestPolicy): string | undefined {
  if (policy.allowLocalhost && isLoopback(address)) return undefined;
  return addressBlockReason(address, policy.allowPrivateUrls);
}

export type HostCheck =
  | { readonly ok: true; readonly address: string; readonly family: 4 | 6 }
  | { readonly ok: false; readonly reason: string };

/**
 * Resolves `host` and judges every address it has (upstream fails closed the same way): the address to dial, or why
 * not. Cloud metadata host names are refused by name.
 */
export type HostLookup = (host: string) => Promise<readonly { address: string; family: number }[]>;

const systemLookup: HostLookup = async (host) => (await import("node:dns/promises")).lookup(host, { all: true });

export async function checkHost(host: string, policy: RequestPolicy, lookup = systemLookup): Promise<HostCheck> {
  const bare = host.replace(/^\[|\]$/g, "");
  const version = isIP(bare);
  if (version !== 0) {
    const reason = addressReason(bare, policy);
    return reason ? { ok: false, reason } : { ok: true, address: bare, family: version === 4 ? 4 : 6 };
  }
  let byName: string | undefined;
  try {
    byName = urlBlockReason(new URL(`http://${bare}/`), policy.allowPrivateUrls);
  } catch {
    return { ok: false, reason: `Blocked: ${bare} is not a valid host name` };
  }
  if (byName) return { ok: false, reason: byName };
  // Loopback is the user's own machine only when the page named it so: a public name that resolves to 127.0.0.1 is
  // DNS rebinding (a hostile page reading the user's local services as its own origin), so it gets the strict rule.
  const resolvedPolicy = LOCALHOST_NAME.test(bare) ? policy : { ...policy, allowLocalhost: false };
  let addresses: readonly { address: string; family: number }[];
  try {
    addresses = await lookup(bare);
  } catch (error) {
    return { ok: false, reason: `could not resolve ${bare} (${(error as NodeJS.ErrnoException).code ?? "error"})` };
  }
  for (const { address } of addresses) {
    const reason = addressReason(address, resolvedPolicy);
    if (reason) return { ok: false, reason: `${reason} (${bare} resolves to ${address})` };
  }
  const first = addresses[0];
  if (!first) return { ok: false, reason: `could not resolve ${bare}` };
  return { ok: true, address: first.address, family: first.family === 6 ? 6 : 4 };
}

/** Schemes that never leave the page (a blank page, its own data): nothing to guard. */
const IN_PAGE_SCHEMES = new Set(["about:", "blob:"]);

/** Why the browser may not open `url`, or undefined when it may (the navigate tool's check before any browser starts). */
export async function requestBlockReason(url: string, policy: RequestPolicy): Promise<string | undefined> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `Blocked: ${url} is not a valid URL`;
  }
  if (IN_PAGE_SCHEMES.has(parsed.protocol)) return undefined;
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:")
    return `Blocked: only http and https pages can be opened (got ${parsed.protocol.replace(/:$/, "")})`;
  const check = await checkHost(parsed.hostname, policy);
  // An unknown host fails on its own when the browser asks for it; there is nothing to refuse yet.
  if (!check.ok && check.reason.startsWith("could not resolve")) return undefined;
  return check.ok ? undefined : check.reason;
}
