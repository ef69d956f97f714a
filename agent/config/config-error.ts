/** A problem in a user's configuration, located precisely enough to fix it. */
export interface ConfigProblem {
  readonly file: string;
  readonly line?: number;
  readonly column?: number;
  readonly message: string;
}

export class ConfigError extends Error {
  constructor(readonly problem: ConfigProblem) {
    super(formatConfigProblem(problem));
    this.name = "ConfigError";
  }
}

/** `file:line:column: message`, the form editors and terminals turn into links. */
export function formatConfigProblem(problem: ConfigProblem): string {
  let where = problem.file;
  if (problem.line !== undefined) where += `:${problem.line}`;
  if (problem.line !== undefined && problem.column !== undefined) where += `:${problem.column}`;
  return `${where}: ${problem.message}`;
}
