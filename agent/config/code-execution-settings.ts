import type { Env } from "./hermes-home.js";
import { loadHermesConfig } from "./load-config.js";
import { configErrorAt, type YamlFile } from "./yaml-file.js";

/** config.yaml `code_execution:` (upstream's section and defaults) as execute_code reads it. */
export interface CodeExecutionSettings {
  /** `timeout`: seconds a script may run before its process group is killed (upstream: 300). */
  readonly timeoutSeconds: number;
  /** `max_tool_calls`: hermes_tools calls one script may make (upstream: 50). */
  readonly maxToolCalls: number;
  /**
   * `python`: the interpreter to run scripts with. Ours, not upstream's (which runs its own interpreter or the
   * project's venv): this server is Node, so it must find a Python; a user with no system python3 names one here.
   */
  readonly python?: string;
}

export const DEFAULT_CODE_EXECUTION_SETTINGS: CodeExecutionSettings = { timeoutSeconds: 300, maxToolCalls: 50 };

/** Read afresh for each call, as the web settings are: an edited config.yaml applies without a restart. */
export function loadCodeExecutionSettings(home: string, processEnv: Env): CodeExecutionSettings {
  return readCodeExecutionSettings(loadHermesConfig({ ...processEnv, HERMES_HOME: home }).yaml);
}

/** Reads `code_execution:`; a wrong value is a ConfigError on its line rather than a silent default. */
export function readCodeExecutionSettings(yaml: YamlFile): CodeExecutionSettings {
  const section = yaml.data.code_execution;
  if (section === undefined || section === null) return DEFAULT_CODE_EXECUTION_SETTINGS;
  if (typeof section !== "object" || Array.isArray(section))
    throw configErrorAt(yaml, ["code_execution"], "`code_execution` must be a mapping (timeout, max_tool_calls)");
  const fields = section as Record<string, unknown>;
  const whole = (key: string, fallback: number): number => {
    const value = fields[key] ?? fallback;
    if (typeof value !== "number" || !Number.isInteger(value) || value < 1)
      throw configErrorAt(yaml, ["code_execution", key], `code_execution.${key} must be a whole number, 1 or more`);
    return value;
  };
  const python = fields.python;
  if (python !== undefined && python !== null && (typeof python !== "string" || !python.trim()))
    throw configErrorAt(yaml, ["code_execution", "python"], "code_execution.python must be the path of an interpreter");
  return {
    timeoutSeconds: whole("timeout", DEFAULT_CODE_EXECUTION_SETTINGS.timeoutSeconds),
    maxToolCalls: whole("max_tool_calls", DEFAULT_CODE_EXECUTION_SETTINGS.maxToolCalls),
    ...(typeof python === "string" ? { python: python.trim() } : {}),
  };
}
