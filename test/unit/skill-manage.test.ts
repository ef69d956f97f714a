import { strict as assert } from "node:assert";
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  categoryProblem,
  filePathProblem,
  frontmatterProblem,
  nameProblem,
} from "../../agent/tools/skills/skill-manage-checks.js";
import { skillManageTool } from "../../agent/tools/skills/skill-manage-tool.js";
import { TempDirs } from "../helpers/temp-dirs.js";
import { runTool, ScriptedUser, toolEnvironment, toolSettings } from "../helpers/tool-env.js";

const SKILL = "---\nname: notes\ndescription: Keep notes\n---\n# Notes\n\nWrite them down.\n";

describe("skill_manage's checks", () => {
  it("takes upstream's names and categories", () => {
    assert.equal(nameProblem("deploy-check.v2_x"), undefined);
    assert.equal(
      nameProblem("Deploy"),
      "Invalid skill name 'Deploy'. Use lowercase letters, numbers, hyphens, dots, and underscores. Must start with a letter or digit.",
    );
    assert.equal(nameProblem("a".repeat(65)), "Skill name exceeds 64 characters.");
    assert.equal(nameProblem(""), "Skill name is required.");
    assert.equal(categoryProblem("  "), undefined);
    assert.match(categoryProblem("dev/ops") ?? "", /Categories must be a single directory name\./);
  });

  it("requires frontmatter with name and description, and a body", () => {
    assert.equal(frontmatterProblem(SKILL), undefined);
    assert.equal(frontmatterProblem(`\ufeff${SKILL}`), undefined);
    assert.equal(
      frontmatterProblem("# no frontmatter"),
      "SKILL.md must start with YAML frontmatter (---). See existing skills for format.",
    );
    assert.equal(
      frontmatterProblem("---\nname: x\n"),
      "SKILL.md frontmatter is not closed. Ensure you have a closing '---' line.",
    );
    assert.equal(frontmatterProblem("---\nname: x\n---\nbody\n"), "Frontmatter must include 'description' field.");
    assert.equal(frontmatterProblem("---\n- a\n---\nbody\n"), "Frontmatter must be a YAML mapping (key: value pairs).");
    assert.match(frontmatterProblem("---\nname: [x\n---\nbody\n") ?? "", /^YAML frontmatter parse error: /);
    assert.equal(
      frontmatterProblem("---\nname: x\ndescription: y\n---\n\n"),
      "SKILL.md must have content after the frontmatter (instructions, procedures, etc.).",
    );
    assert.equal(
      frontmatterProblem(`---\nname: x\ndescription: ${"d".repeat(1025)}\n---\nbody\n`),
      "Description exceeds 1024 characters.",
    );
  });

  it("keeps supporting files in the four folders, without traversal", () => {
    assert.equal(filePathProblem("references/api.md"), undefined);
    assert.equal(filePathProblem("SKILL.md"), undefined);
    assert.equal(filePathProblem("references/../../x"), "Path traversal ('..') is not allowed.");
    assert.equal(
      filePathProblem("notes.txt"),
      "File must be under one of: assets, references, scripts, templates. Got: 'notes.txt'",
    );
    assert.equal(filePathProblem("scripts"), "Provide a file path, not just a directory. Example: 'scripts/myfile.md'");
  });
});

describe("skill_manage on disk", () => {
  const temp = new TempDirs();
  afterEach(() => temp.cleanup());

  function setup(options: { approvalsMode?: "manual" | "off"; editAnswers?: boolean[] } = {}) {
    const home = temp.make();
    const user = new ScriptedUser([], [], true, options.editAnswers ?? [true, true, true, true]);
    const env = toolEnvironment(
      temp.make(),
      home,
      user,
      toolSettings({ approvalsMode: options.approvalsMode ?? "manual" }),
    );
    const run = async (args: Record<string, unknown>) => {
      const result = await runTool(skillManageTool, args, env);
      const payload = JSON.parse(result.content) as Record<string, unknown>;
      return { ...payload, isError: result.isError === true } as Record<string, unknown> & { isError: boolean };
    };
    return { home, user, run };
  }

  it("rewrites a skill with edit, and refuses one that would lose its frontmatter", async () => {
    const { home, run } = setup();
    await run({ action: "create", name: "notes", content: SKILL });
    const rewritten = SKILL.replace("Write them down.", "Write them down twice.");
    assert.equal(
      (await run({ action: "edit", name: "notes", content: rewritten })).message,
      "Skill 'notes' updated (full rewrite).",
    );
    assert.equal(readFileSync(join(home, "skills", "notes", "SKILL.md"), "utf8"), rewritten);
    const broken = await run({ action: "patch", name: "notes", old_string: "---\n# Notes", new_string: "# Notes" });
    assert.equal(broken.isError, true);
    assert.match(String(broken.error), /^Patch would break SKILL\.md structure: /);
  });

  it("asks before writing, under approvals.mode: off too (a skill outlives the session)", async () => {
    const asked = setup();
    await asked.run({ action: "create", name: "notes", content: SKILL });
    assert.equal(asked.user.editRequests.length, 1);
    const off = setup({ approvalsMode: "off" });
    await off.run({ action: "create", name: "notes", content: SKILL });
    assert.equal(off.user.editRequests.length, 1);
    assert.ok(existsSync(join(off.home, "skills", "notes", "SKILL.md")));
  });

  it("refuses a name already taken, an unknown skill, and a write through a symlink out of the skill", async () => {
    const { home, run } = setup();
    await run({ action: "create", name: "notes", content: SKILL });
    assert.match(
      String((await run({ action: "create", name: "notes", content: SKILL })).error),
      /^A skill named 'notes' already exists at /,
    );
    assert.match(
      String(
        (await run({ action: "write_file", name: "nope", file_path: "references/a.md", file_content: "x" })).error,
      ),
      /^Skill 'nope' not found in active profile '.*'\. Use skills_list\(\) to see available skills\. Create it first with action='create'\.$/,
    );
    const outside = temp.make();
    symlinkSync(outside, join(home, "skills", "notes", "references"));
    const escaped = await run({ action: "write_file", name: "notes", file_path: "references/a.md", file_content: "x" });
    assert.match(String(escaped.error), /resolves outside the skill directory/);
    assert.ok(!existsSync(join(outside, "a.md")));
  });

  it("does not create a skill through a category folder linked out of the skills folder", async () => {
    const { home, run } = setup();
    const outside = temp.make();
    mkdirSync(join(home, "skills"));
    symlinkSync(outside, join(home, "skills", "devops"));
    const refused = await run({ action: "create", name: "notes", category: "devops", content: SKILL });
    assert.match(String(refused.error), /resolves outside the skill directory/);
    assert.ok(!existsSync(join(outside, "notes")));
  });

  it("removes a supporting file, and lists what there is when it is missing", async () => {
    const { home, run } = setup();
    await run({ action: "create", name: "notes", content: SKILL });
    mkdirSync(join(home, "skills", "notes", "templates"));
    writeFileSync(join(home, "skills", "notes", "templates", "t.md"), "T\n");
    const missing = await run({ action: "remove_file", name: "notes", file_path: "templates/x.md" });
    assert.deepEqual(missing.available_files, ["templates/t.md"]);
    const removed = await run({ action: "remove_file", name: "notes", file_path: "templates/t.md" });
    assert.equal(removed.message, "File 'templates/t.md' removed from skill 'notes'.");
    assert.ok(!existsSync(join(home, "skills", "notes", "templates")), "the empty folder is tidied away");
  });
});
