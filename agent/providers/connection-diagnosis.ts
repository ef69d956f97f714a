/**
 * Why an endpoint cannot be reached, in words that name what to fix. The SDKs report every such failure as
 * "Connection error." and keep the cause to themselves, so one plain request to the same URL asks the network again
 * and reads the system's error code (connection refused, host not found, certificate problems).
 */
export async function diagnoseConnection(baseUrl: string, timeoutMs = 5_000): Promise<string> {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return `The base URL '${baseUrl}' is not a URL.`;
  }
  const where = url.host;
  try {
    await fetch(url, { method: "GET", signal: AbortSignal.timeout(timeoutMs), redirect: "manual" });
    return `Could not reach ${baseUrl} with the model's request, though the server answers a plain one: check the base URL's path.`;
  } catch (error) {
    const code = codeOf(error);
    if (code === "ECONNREFUSED")
      return `Connection refused at ${where}: nothing is listening there. Is the server running, and is the base URL (${baseUrl}) right?`;
    if (code === "ENOTFOUND" || code === "EAI_AGAIN")
      return `The host '${url.hostname}' was not found: check the base URL (${baseUrl}) and your network.`;
    if (code && /CERT|SSL|TLS|SELF_SIGNED|UNABLE_TO_VERIFY/.test(code))
      return `The TLS certificate of ${where} was refused (${code}): check the base URL, or the server's certificate.`;
    if (code === "ECONNRESET" || code === "EPIPE")
      return `${where} closed the connection: is the base URL's scheme (http or https) right?`;
    if ((error as Error).name === "TimeoutError" || code === "ETIMEDOUT")
      return `${where} did not answer within ${timeoutMs / 1000} s: check the base URL and your network.`;
    return `Could not reach ${baseUrl}${code ? ` (${code})` : ""}: check the base URL and your network.`;
  }
}

function codeOf(error: unknown): string | undefined {
  const cause = (error as { cause?: { code?: unknown; cause?: { code?: unknown } } }).cause;
  const code = cause?.code ?? cause?.cause?.code ?? (error as { code?: unknown }).code;
  return typeof code === "string" ? code : undefined;
}
