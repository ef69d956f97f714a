/**
 * The shell's field separator written for a space (`echo${IFS}x|base32${IFS}-d`, `cat$IFS$9/etc/passwd`), read as
 * the blank it stands for before the threat patterns run (issue #23: obfuscated decode-and-run). It is the usual way
 * to write a command without a space, to slip it past a filter or into a field that strips spaces; a real script
 * names IFS to set or save it (`IFS=$'\n'`, `OLD="$IFS"`), which reads the same either way.
 *
 * Each separator becomes as many spaces as it has characters, so the folded text keeps every offset (as
 * confusables.ts does): line numbers and snippets taken from the unfolded text stay right.
 */
// Also its spellings that expand to its first character or to it plus nothing: ${IFS%??}, ${IFS:0:1}, ${IFS::1},
// $IFS$9, $IFS$(), $IFS'' and $IFS"".
const SEPARATOR = /\$\{IFS(?:[:%#/^,][^}\s]{0,8})?\}|\$IFS(?:\$[0-9@*]|\$\(\)|''|""|(?![A-Za-z0-9_]))/g;

export function foldShellSpaces(text: string): string {
  if (!text.includes("IFS")) return text;
  return text.replace(SEPARATOR, (separator) => " ".repeat(separator.length));
}
