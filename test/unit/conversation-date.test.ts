import { strict as assert } from "node:assert";
import type { PromptSettings } from "../../agent/config/prompt-settings.js";
import { buildSystemPrompt } from "../../agent/prompt/system-prompt.js";
import { TempDirs } from "../helpers/temp-dirs.js";

const SETTINGS: PromptSettings = {
  contextFileMaxChars: undefined,
  memoryEnabled: false,
  userProfileEnabled: false,
  memoryCharLimit: 2200,
  userCharLimit: 1375,
};

describe("system prompt: the conversation's date", () => {
  const temp = new TempDirs();
  after(() => temp.cleanup());

  it("reads as en-US writes it in full, in the local time zone, for every day of a leap year", () => {
    const home = temp.make();
    const cwd = temp.make();
    const intl = new Intl.DateTimeFormat("en-US", { weekday: "long", month: "long", day: "2-digit", year: "numeric" });
    for (let day = 0; day < 366; day++) {
      const now = new Date(2028, 0, 1 + day, 23, 59);
      const prompt = buildSystemPrompt({
        home,
        cwd,
        model: "m",
        providerId: "custom",
        contextLength: undefined,
        settings: SETTINGS,
        toolNames: new Set(),
        toolsets: new Set(),
        now,
      });
      assert.ok(
        prompt.text.endsWith(`Conversation started: ${intl.format(now)}\nModel: m\nProvider: custom`),
        prompt.text.slice(-80),
      );
    }
    const first = buildSystemPrompt({
      home,
      cwd,
      model: "m",
      providerId: "custom",
      contextLength: undefined,
      settings: SETTINGS,
      toolNames: new Set(),
      toolsets: new Set(),
      now: new Date(2026, 2, 1),
    });
    assert.ok(first.text.includes("Conversation started: Sunday, March 01, 2026\n"));
  });
});
