import type { LookupAddress, LookupOptions } from "node:dns";
import { BlockList, isIP } from "node:net";

/**
 * SSRF protection, after upstream's tools/url_safety.py: a page fetch may not reach loopback, private, link-local,
 * CGNAT, reserved or multicast addresses unless the user allowed private URLs; cloud metadata endpoints are refused
 * always. The check runs where the socket connects (the `lookup` of the request), so a name that resolves to a
 * public address when checked and to 127.0.0.1 when dialled (DNS rebinding) is refused too.
 */

const METADATA_HOSTNAMES = new Set(["metadata.google.internal", "metadata.goog"]);

/** Cloud metadata endpoints and the whole link-local range: no agent has business there, whatever the settings. */
const ALWAYS_BLOCKED = new BlockList();
ALWAYS_BLOCKED.addSubnet("169.254.0.0", 16, "ipv4");
ALWAYS_BLOCKED.addAddress("100.100.100.200", "ipv4");
ALWAYS_BLOCKED.addAddress("fd00:ec2::254", "ipv6");

/** What Python's ipaddress calls private, loopback, link-local, reserved, multicast or unspecified, plus CGNAT. */
const PRIVATE = new BlockList();
for (const [net, prefix] of [
  ["0.0.0.0", 8], ["10.0.0.0", 8], ["100.64.0.0", 10], ["127.0.0.0", 8], ["169.254.0.0", 16], ["172.16.0.0", 12],
  ["192.0.0.0", 24], ["192.0.2.0", 24], ["192.168.0.0", 16], ["198.18.0.0", 15], ["198.51.100.0", 24],
  ["203.0.113.0", 24], ["224.0.0.0", 4], ["240.0.0.0", 4],
] as const) PRIVATE.addSubnet(net, prefix, "ipv4");
for (const [net, prefix] of [
  ["::", 128], ["::1", 128], ["fc00::", 7], ["fe80::", 10], ["ff00::", 8], ["2001:db8::", 32], ["100::", 64], ["64:ff9b:1::", 48],
] as const) PRIVATE.addSubnet(net, prefix, "ipv6");

export const PRIVATE_ADDRESS_ERROR = "Blocked: URL targets a private or internal network address";

/** Why `address` may not be dialled, or undefined when it may. IPv4-mapped IPv6 is judged by its IPv4 address. */
export function addressBlockReason(address: string, allowPrivate: boolean): string | undefined {
  const bare = address.replace(/^\[|\]$/g, "").split("%")[0]!;
  const version = isIP(bare);
  if (version === 0) return `Blocked: ${address} is not an IP address`;
  const mapped = version === 6 ? mappedIpv4(bare) : undefined;
  const [ip, family] = mapped ? [mapped, "ipv4" as const] : [bare, version === 4 ? ("ipv4" as const) : ("ipv6" as const)];
  if (ALWAYS_BLOCKED.check(ip, family)) return "Blocked: URL targets a cloud metadata or link-local address";
  if (!allowPrivate && PRIVATE.check(ip, family)) return PRIVATE_ADDRESS_ERROR;
  return undefined;
}

/** The checks that need no DNS: scheme, metadata host names, and literal IP hosts (which never reach `lookup`). */
export function urlBlockReason(url: URL, allowPrivate: boolean): string | undefined {
  if (url.protocol !== "http:" && url.protocol !== "https:") return `Blocked: only http and https URLs can be fetched (got ${url.protocol.replace(/:$/, "")})`;
  const host = url.hostname.replace(/^\[|\]$/g, "").toLowerCase().replace(/\.$/, "");
  if (!host) return "Blocked: URL has no host";
  if (METADATA_HOSTNAMES.has(host)) return "Blocked: URL targets a cloud metadata address";
  return isIP(host) ? addressBlockReason(host, allowPrivate) : undefined;
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for http(s).request that resolves every address of the name and refuses the connection when any of
 * them is blocked (upstream fails closed the same way), so what is checked is exactly what is dialled.
 */
export function guardedLookup(allowPrivate: boolean) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    // node:dns is loaded at the first lookup, not with every session (see http-fetch.ts).
    void import("node:dns").then(({ lookup: dnsLookup }) => dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      const list = addresses as LookupAddress[];
      for (const entry of list) {
        const reason = addressBlockReason(entry.address, allowPrivate);
        if (reason) return callback(Object.assign(new Error(`${reason} (${hostname} resolves to ${entry.address})`), { code: "EHERMESBLOCKED" }), []);
      }
      if (list.length === 0) return callback(Object.assign(new Error(`${hostname} did not resolve`), { code: "ENOTFOUND" }), []);
      if (options.all) return callback(null, list);
      callback(null, list[0]!.address, list[0]!.family);
    }));
  };
}

/** `::ffff:a.b.c.d` and its hex form `::ffff:7f00:1` as dotted IPv4; undefined for other IPv6 addresses. */
function mappedIpv4(ipv6: string): string | undefined {
  const lower = ipv6.toLowerCase();
  const dotted = /^(?:0{0,4}:){0,5}:?ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (dotted) return dotted[1];
  const hex = /^(?:0{0,4}:){0,5}:?ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (!hex) return undefined;
  const high = parseInt(hex[1]!, 16);
  const low = parseInt(hex[2]!, 16);
  return [high >> 8, high & 255, low >> 8, low & 255].join(".");
}

/** Query parameters that carry credentials (upstream's list): such URLs are not handed to a fetcher. */
const SENSITIVE_QUERY_NAMES = new Set([
  "access_token", "api_key", "apikey", "auth_token", "authorization", "awsaccesskeyid", "client_secret", "credential",
  "credentials", "jwt", "password", "passwd", "secret", "session_id", "signature", "token", "x_amz_security_token",
  "x_amz_signature", "x-amz-security-token", "x-amz-signature",
]);

/** Well-known API key prefixes (OpenAI/Anthropic, GitHub, Slack, AWS, Google, GitLab, Hugging Face). */
const KEY_PREFIX = /(?:sk-(?:ant-|proj-)?[A-Za-z0-9_-]{16,}|gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}|xox[abprs]-[A-Za-z0-9-]{10,}|AKIA[0-9A-Z]{16}|AIza[0-9A-Za-z_-]{30,}|glpat-[A-Za-z0-9_-]{16,}|hf_[A-Za-z0-9]{20,})/;

/**
 * Upstream blocks the whole web_extract call when a URL carries a secret: the model may be steered into sending one
 * to a page (exfiltration), and the page's server would log it.
 */
export function secretInUrlReason(url: URL): string | undefined {
  let decoded = url.href;
  try {
    decoded = decodeURIComponent(url.href);
  } catch {
    // A malformed escape is left as written; the raw text is still checked.
  }
  if (KEY_PREFIX.test(url.href) || KEY_PREFIX.test(decoded)) {
    return "Blocked: URL contains what appears to be an API key or token. Secrets must not be sent in URLs.";
  }
  for (const [name, value] of url.searchParams) {
    if (value && SENSITIVE_QUERY_NAMES.has(name.toLowerCase())) {
      return `Blocked: URL contains a credential-like query parameter (${name}). Remove the sensitive query parameter; pages are fetched by tools that log and cache URLs.`;
    }
  }
  return undefined;
}
