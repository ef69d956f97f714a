/**
 * Python's str.strip() with no argument strips exactly the characters for which str.isspace() is true. JavaScript's
 * trim() also strips U+FEFF (a BOM), which Python keeps, and that difference decides whether a BOM-prefixed file
 * is blocked. Context files are stripped the Python way.
 */
const PY_SPACE =
  "\t\n\v\f\r\x1c\x1d\x1e\x1f \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000";

export function pyStrip(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && PY_SPACE.includes(text[start]!)) start++;
  while (end > start && PY_SPACE.includes(text[end - 1]!)) end--;
  return text.slice(start, end);
}

/**
 * A file's text without the one leading BOM Windows editors write (upstream strips it, its test
 * `test_leading_utf8_bom_stripped_not_blocked`): neither the prompt nor the scanner sees it. A BOM anywhere else stays.
 */
export function withoutLeadingBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** Upstream's `_strip_yaml_frontmatter`: drops a leading `---` … `---` block; an unclosed one, or an empty body, keeps the original. */
export function stripYamlFrontmatter(content: string): string {
  const text = content.replace(/^\ufeff+/, "");
  if (!text.startsWith("---")) return text;
  const end = text.indexOf("\n---", 3);
  if (end === -1) return text;
  const body = text.slice(end + 4).replace(/^\n+/, "");
  return body ? body : text;
}
