import { blockedSkillFindings, type ContextReport } from "../../agent/index.js";

export interface StartupNotice {
  readonly title: string;
  readonly description: string;
}

/**
 * What the user must hear about how their context was loaded: upstream's truncation warnings (upstream only logs
 * them) and, beyond upstream, every file the threat scanner blocked, so nothing vanishes from the prompt silently.
 */
export function startupNotices(report: ContextReport): StartupNotice[] {
  const notices: StartupNotice[] = report.warnings.map((warning) => ({
    title: "Context file truncated",
    description: warning,
  }));
  for (const file of [report.identity, ...report.files]) {
    if (file?.status !== "blocked") continue;
    const hits = (file.threats ?? []).map((t) => `${t.id} at line ${t.line}`).join(", ");
    notices.push({
      title: `${file.label} blocked`,
      description: `${file.path} was not loaded: the threat scanner found possible prompt injection (${hits}). Run /context for details.`,
    });
  }
  for (const skill of report.skills?.blocked ?? []) {
    const [title, outcome] =
      skill.scanned === "category"
        ? [`Skill category ${skill.name}: description blocked`, "was left out of the skills index"]
        : [`Skill ${skill.name} blocked`, "was not offered"];
    notices.push({
      title,
      description: `${skill.skillMd} ${outcome}: the threat scanner found possible prompt injection (${blockedSkillFindings(skill)}).`,
    });
  }
  const untrusted = report.skills?.untrustedProject;
  if (untrusted) {
    // Upstream's CLI prints the same hint pointing at `hermes skills trust`; here the setting is edited directly.
    notices.push({
      title: "Project skills not loaded",
      description: `${untrusted.dirs.join(", ")} holds skills, but ${untrusted.root} is not trusted. To use them, add it to skills.trusted_project_dirs in config.yaml and start a new session.`,
    });
  }
  return notices;
}
