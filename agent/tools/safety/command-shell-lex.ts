/**
 * A small, non-executing shell lexer for dangerous-command detection: it finds the simple commands of a command
 * line (including those inside `$(…)`, backticks, `<(…)` and `( … )` subshells), their words with quotes and
 * escapes removed, and where each starts. It never expands anything and accepts malformed input (an unclosed quote
 * or substitution runs to the end), because its job is to expose command positions to the pattern tables, not to
 * decide whether the command is valid.
 *
 * Deliberately simpler than bash: heredoc bodies are read as commands (as upstream does), `case` patterns are not
 * special, and `{`, `!`, `if`… are recognised only as whole words at command position.
 */

export interface ShellWord {
  /** Offsets in the lexed text. */
  readonly start: number;
  readonly end: number;
  /** The word as written. */
  readonly raw: string;
  /** Quotes and escapes removed; substitutions and `${…}` kept as written. */
  readonly value: string;
}

export interface SimpleCommand {
  /** Its words in order, without redirection operators and their targets. */
  readonly words: readonly ShellWord[];
  /** Whether it has a `<<` / `<<-` redirection. */
  readonly heredoc: boolean;
  /** Whether its stdin comes from a pipe (`a | b`: true for b), which makes `| sh` readable structurally. */
  readonly piped?: boolean;
}

/** A redirection met anywhere in the text, kept apart from the commands (a command may be only a redirection). */
export interface Redirection {
  /** The operator without its descriptor number: `>`, `>>`, `>|`, `&>`, `<`, `>&`, … */
  readonly operator: string;
  /** The descriptor number glued before it (`2>`), if any. */
  readonly fd?: string;
  /** Its target word; absent when the text ends after the operator. */
  readonly target?: ShellWord;
}

/** Words after which the next word is again at command position. */
const PREFIX_KEYWORDS = new Set(["{", "}", "!", "if", "then", "else", "elif", "do", "while", "until"]);
const HORIZONTAL_SPACE = new Set([" ", "\t", "\r", "\f", "\v"]);
const REDIRECTIONS = ["&>>", "<<<", "<<-", "&>", "<<", "<>", "<&", ">>", ">&", ">|", "<", ">"];
// Nesting deeper than this is read as plain text, so adversarial `$($($(…` cannot exhaust the stack.
const MAX_DEPTH = 40;

class WordBuilder {
  value = "";
  constructor(readonly start: number) {}
}

class Lexer {
  private i = 0;
  readonly commands: SimpleCommand[] = [];
  readonly redirections: Redirection[] = [];

  constructor(
    private readonly text: string,
    private readonly offset: number,
    private depth: number,
  ) {}

  /** Reads commands until the end, or (when `closeParen`) past the `)` that closes the enclosing group. */
  list(closeParen: boolean): void {
    const text = this.text;
    let words: ShellWord[] = [];
    let heredoc = false;
    let word: WordBuilder | undefined;
    let redirectTarget = false;
    let pendingRedirect: { operator: string; fd?: string } | undefined;
    let piped = false;
    let nextPiped = false;

    const endWord = (): void => {
      if (!word) return;
      const start = word.start;
      const raw = text.slice(start, this.i);
      const built: ShellWord = { start: start + this.offset, end: this.i + this.offset, raw, value: word.value };
      word = undefined;
      if (redirectTarget) {
        redirectTarget = false;
        if (pendingRedirect) this.redirections.push({ ...pendingRedirect, target: built });
        pendingRedirect = undefined;
      } else if (words.length === 0 && PREFIX_KEYWORDS.has(raw)) {
        this.commands.push({ words: [built], heredoc: false, ...(piped ? { piped } : {}) });
      } else {
        words.push(built);
      }
    };
    const endCommand = (): void => {
      endWord();
      if (pendingRedirect) this.redirections.push(pendingRedirect);
      pendingRedirect = undefined;
      if (words.length > 0) this.commands.push({ words, heredoc, ...(piped ? { piped } : {}) });
      words = [];
      heredoc = false;
      redirectTarget = false;
      piped = nextPiped;
      nextPiped = false;
    };

    while (this.i < text.length) {
      const c = text[this.i]!;
      if (HORIZONTAL_SPACE.has(c)) {
        endWord();
        this.i++;
        continue;
      }
      if (c === ")") {
        endCommand();
        this.i++;
        if (closeParen) return;
        continue;
      }
      if (c === "(") {
        endCommand();
        this.i++;
        this.nestedList();
        continue;
      }
      if (c === "\n" || c === ";" || c === "|" || (c === "&" && text[this.i + 1] !== ">")) {
        // `a | b` and `a |& b` feed b; `||` does not.
        nextPiped = c === "|" && text[this.i + 1] !== "|" && text[this.i - 1] !== "|";
        endCommand();
        this.i += c === "|" && text[this.i + 1] === "&" ? 2 : 1;
        continue;
      }
      if ((c === "<" || c === ">") && text[this.i + 1] === "(") {
        word ??= new WordBuilder(this.i);
        this.substitution(word, 2);
        continue;
      }
      if (c === "<" || c === ">" || c === "&") {
        // A file-descriptor number glued to the operator (`2>`) belongs to the redirection.
        let fd: string | undefined;
        if (word && /^\d+$/.test(text.slice(word.start, this.i))) {
          fd = text.slice(word.start, this.i);
          word = undefined;
        } else endWord();
        const operator = REDIRECTIONS.find((op) => text.startsWith(op, this.i)) ?? c;
        if (operator === "<<" || operator === "<<-") heredoc = true;
        this.i += operator.length;
        if (pendingRedirect) this.redirections.push(pendingRedirect);
        pendingRedirect = { operator, ...(fd ? { fd } : {}) };
        redirectTarget = true;
        continue;
      }
      if (c === "#" && !word) {
        while (this.i < text.length && text[this.i] !== "\n") this.i++;
        continue;
      }
      word ??= new WordBuilder(this.i);
      this.wordPart(word);
    }
    endCommand();
  }

  /** A `( … )` group or the body of a substitution: same text, same output, one level deeper. */
  private nestedList(): void {
    if (this.depth >= MAX_DEPTH) return;
    this.depth++;
    this.list(true);
    this.depth--;
  }

  /** One piece of a word at the current position (a character, a quoted span, an escape or a substitution). */
  private wordPart(word: WordBuilder): void {
    const text = this.text;
    const c = text[this.i]!;
    if (c === "'") {
      const close = text.indexOf("'", this.i + 1);
      const end = close < 0 ? text.length : close;
      word.value += text.slice(this.i + 1, end);
      this.i = close < 0 ? text.length : close + 1;
    } else if (c === '"') {
      this.doubleQuoted(word);
    } else if (c === "\\") {
      if (this.i + 1 < text.length && text[this.i + 1] !== "\n") word.value += text[this.i + 1];
      this.i += 2;
    } else if (c === "$" && text[this.i + 1] === "(") {
      this.substitution(word, 2);
    } else if (c === "$" && text[this.i + 1] === "{") {
      const close = text.indexOf("}", this.i + 2);
      const end = close < 0 ? text.length : close + 1;
      word.value += text.slice(this.i, end);
      this.i = end;
    } else if (c === "`") {
      this.backtick(word);
    } else {
      word.value += c;
      this.i++;
    }
  }

  private doubleQuoted(word: WordBuilder): void {
    const text = this.text;
    this.i++;
    while (this.i < text.length) {
      const c = text[this.i]!;
      if (c === '"') {
        this.i++;
        return;
      }
      if (c === "\\" && this.i + 1 < text.length && '$`"\\\n'.includes(text[this.i + 1]!)) {
        if (text[this.i + 1] !== "\n") word.value += text[this.i + 1];
        this.i += 2;
      } else if (c === "$" && text[this.i + 1] === "(") {
        this.substitution(word, 2);
      } else if (c === "`") {
        this.backtick(word);
      } else {
        word.value += c;
        this.i++;
      }
    }
  }

  /** `$(…)`, `<(…)`, `>(…)`: the body is lexed as commands; the word keeps the text as written. */
  private substitution(word: WordBuilder, openerLength: number): void {
    const start = this.i;
    this.i += openerLength;
    this.nestedList();
    word.value += this.text.slice(start, this.i);
  }

  private backtick(word: WordBuilder): void {
    const text = this.text;
    const start = this.i;
    let j = start + 1;
    while (j < text.length && text[j] !== "`") j += text[j] === "\\" ? 2 : 1;
    const bodyEnd = Math.min(j, text.length);
    if (this.depth < MAX_DEPTH) {
      const inner = new Lexer(text.slice(start + 1, bodyEnd), this.offset + start + 1, this.depth + 1);
      inner.list(false);
      this.commands.push(...inner.commands);
      this.redirections.push(...inner.redirections);
    }
    this.i = Math.min(bodyEnd + 1, text.length);
    word.value += text.slice(start, this.i);
  }
}

/** The simple commands of `text`, ordered by where they start. */
export function lexShell(text: string): SimpleCommand[] {
  return lexShellWithRedirections(text).commands;
}

/** lexShell, plus every redirection (in substitutions too), in the order met. */
export function lexShellWithRedirections(text: string): { commands: SimpleCommand[]; redirections: Redirection[] } {
  const lexer = new Lexer(text, 0, 0);
  lexer.list(false);
  const commands = [...lexer.commands].sort((a, b) => a.words[0]!.start - b.words[0]!.start);
  return { commands, redirections: lexer.redirections };
}
