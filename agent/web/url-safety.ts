import type { LookupAddress, LookupOptions } from "node:dns";
import { BlockList, isIP } from "node:net";
import { containsKeyShape } from "../security/secret-redaction.js";

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

/**
 * What Python's ipaddress calls private, loopback, link-local, reserved, multicast or unspecified, plus CGNAT.
 * NAT64's 64:ff9b::/96, 6to4's 2002::/16 and Teredo's 2001::/32 are not listed: addressBlockReason judges them by
 * the IPv4 address they carry.
 */
const PRIVATE = new BlockList();
for (const [net, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const)
  PRIVATE.addSubnet(net, prefix, "ipv4");
for (const [net, prefix] of [
  ["::", 128],
  ["::1", 128],
  ["fc00::", 7],
  ["fe80::", 10],
  ["ff00::", 8],
  ["2001:db8::", 32],
  ["100::", 64],
  ["64:ff9b:1::", 48],
] as const)
  PRIVATE.addSubnet(net, prefix, "ipv6");

export const PRIVATE_ADDRESS_ERROR = "Blocked: URL targets a private or internal network address";

/**
 * Why `address` may not be dialled, or undefined when it may. IPv6 addresses that carry an IPv4 address (IPv4-mapped,
 * NAT64, 6to4, Teredo) are judged by that IPv4 address.
 */
export function addressBlockReason(address: string, allowPrivate: boolean): string | undefined {
  const bare = address.replace(/^\[|\]$/g, "").split("%")[0]!;
  const version = isIP(bare);
  if (version === 0) return `Blocked: ${address} is not an IP address`;
  const mapped = version === 6 ? embeddedIpv4(bare) : undefined;
  const [ip, family] = mapped
    ? [mapped, "ipv4" as const]
    : [bare, version === 4 ? ("ipv4" as const) : ("ipv6" as const)];
  if (ALWAYS_BLOCKED.check(ip, family)) return "Blocked: URL targets a cloud metadata or link-local address";
  if (!allowPrivate && PRIVATE.check(ip, family)) return PRIVATE_ADDRESS_ERROR;
  return undefined;
}

/** The checks that need no DNS: scheme, metadata host names, and literal IP hosts (which never reach `lookup`). */
export function urlBlockReason(url: URL, allowPrivate: boolean): string | undefined {
  if (url.protocol !== "http:" && url.protocol !== "https:")
    return `Blocked: only http and https URLs can be fetched (got ${url.protocol.replace(/:$/, "")})`;
  const host = url.hostname
    .replace(/^\[|\]$/g, "")
    .toLowerCase()
    .replace(/\.$/, "");
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
    void import("node:dns").then(({ lookup: dnsLookup }) =>
      dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
        if (error) return callback(error, []);
        const list = addresses as LookupAddress[];
        for (const entry of list) {
          const reason = addressBlockReason(entry.address, allowPrivate);
          if (reason)
            return callback(
              Object.assign(new Error(`${reason} (${hostname} resolves to ${entry.address})`), {
                code: "EHERMESBLOCKED",
              }),
              [],
            );
        }
        if (list.length === 0)
          return callback(Object.assign(new Error(`${hostname} did not resolve`), { code: "ENOTFOUND" }), []);
        if (options.all) return callback(null, list);
        callback(null, list[0]!.address, list[0]!.family);
      }),
    );
  };
}

/**
 * The IPv4 address inside an IPv6 one, or undefined: IPv4-mapped `::ffff:a.b.c.d` (also written `::ffff:7f00:1`), and
 * the NAT64 well-known prefix `64:ff9b::/96` (RFC 6052), through which a DNS64/NAT64 network dials IPv4 hosts:
 * `64:ff9b::7f00:1` can reach 127.0.0.1 via the gateway. NAT64 addresses of public hosts stay allowed, since on an
 * IPv6-only network every IPv4-only site resolves to one. The transition tunnels carry one too and a relay delivers
 * to it: 6to4 `2002:AABB:CCDD::/48` (RFC 3056) → AA.BB.CC.DD, and Teredo `2001:0::/32` (RFC 4380), whose client
 * address is the last 32 bits inverted (`2001:0:…:80ff:fffe` → 127.0.0.1).
 */
function embeddedIpv4(ipv6: string): string | undefined {
  const words = ipv6Words(ipv6);
  if (!words) return undefined;
  const zero = (from: number, to: number) => words.slice(from, to).every((w) => w === 0);
  const mapped = zero(0, 5) && words[5] === 0xffff;
  const nat64 = words[0] === 0x64 && words[1] === 0xff9b && zero(2, 6);
  const ipv4 = (high: number, low: number) => [high >> 8, high & 255, low >> 8, low & 255].join(".");
  if (mapped || nat64) return ipv4(words[6]!, words[7]!);
  if (words[0] === 0x2002) return ipv4(words[1]!, words[2]!);
  if (words[0] === 0x2001 && words[1] === 0) return ipv4(words[6]! ^ 0xffff, words[7]! ^ 0xffff);
  return undefined;
}

/** The eight 16-bit words of a valid IPv6 address (checked with isIP first), `::` expanded, a dotted IPv4 tail read. */
function ipv6Words(ipv6: string): number[] | undefined {
  let text = ipv6.toLowerCase();
  const dotted = /(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = text.split("::");
  const part = (half: string | undefined) => (half ? half.split(":").map((w) => parseInt(w, 16)) : []);
  const head = part(halves[0]);
  const tail = part(halves[1]);
  const words =
    halves.length === 1 ? head : [...head, ...Array<number>(8 - head.length - tail.length).fill(0), ...tail];
  return words.length === 8 && words.every((w) => Number.isInteger(w) && w >= 0 && w <= 0xffff) ? words : undefined;
}

/** Query parameters that carry credentials (upstream's list): such URLs are not handed to a fetcher. */
const SENSITIVE_QUERY_NAMES = new Set([
  "access_token",
  "api_key",
  "apikey",
  "auth_token",
  "authorization",
  "awsaccesskeyid",
  "client_secret",
  "credential",
  "credentials",
  "jwt",
  "password",
  "passwd",
  "secret",
  "session_id",
  "signature",
  "token",
  "x_amz_security_token",
  "x_amz_signature",
  "x-amz-security-token",
  "x-amz-signature",
]);

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
  // Well-known key shapes, the same list the log redaction masks (agent/security/secret-redaction.ts).
  if (containsKeyShape(url.href) || containsKeyShape(decoded)) {
    return "Blocked: URL contains what appears to be an API key or token. Secrets must not be sent in URLs.";
  }
  for (const [name, value] of url.searchParams) {
    if (value && SENSITIVE_QUERY_NAMES.has(name.toLowerCase())) {
      return `Blocked: URL contains a credential-like query parameter (${name}). Remove the sensitive query parameter; pages are fetched by tools that log and cache URLs.`;
    }
  }
  return undefined;
}
