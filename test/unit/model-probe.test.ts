import { strict as assert } from "node:assert";
import { probeModel } from "../../agent/providers/model-probe.js";
import { ScriptedLlm } from "../fixtures/scripted-llm.js";
import { scriptedRuntime } from "../helpers/scripted-runtime.js";

describe("model-probe: the one test call --setup ends with", () => {
  let llm: ScriptedLlm;
  beforeEach(async () => {
    llm = await ScriptedLlm.start();
  });
  afterEach(() => llm.close());

  it("asks for one word in each wire format and returns the reply", async () => {
    for (const apiMode of ["chat_completions", "codex_responses", "anthropic_messages"] as const) {
      llm.enqueue({ kind: "text", chunks: ["O", "K\n"] });
      assert.deepEqual(await probeModel(scriptedRuntime(llm, { apiMode })), { ok: true, reply: "OK" }, apiMode);
    }
    assert.equal(llm.requests[0]!.body.tools, undefined, "no tools: the call is as small as it can be");
  });

  it("explains what a failure most likely means for the setup", async () => {
    const verdictFor = async (status: number, message: string) => {
      llm.enqueue({ kind: "error", status, message });
      const result = await probeModel(scriptedRuntime(llm, { model: "no/such-model" }));
      assert.equal(result.ok, false);
      return (result as { verdict: string }).verdict;
    };
    assert.match(
      await verdictFor(404, "model not found"),
      /^The model or the URL is wrong: .* answered HTTP 404 for model 'no\/such-model'\. .*The provider said: model not found$/,
    );
    assert.match(await verdictFor(402, "no credits"), /^The key works, but the account cannot pay .*HTTP 402/);
    assert.match(
      await verdictFor(401, "who are you"),
      /^Scripted wants an API key \(HTTP 401\) and none is set/,
      "a keyless endpoint that wants one is told so, not that its key is wrong",
    );
  });

  it("gives up after the time it is given, saying so", async () => {
    llm.enqueue({ kind: "hang" });
    const started = Date.now();
    const result = await probeModel(scriptedRuntime(llm), 300);
    assert.deepEqual(result, { ok: false, verdict: `${llm.baseUrl} did not answer within 0.3 s.` });
    assert.ok(Date.now() - started < 5000);
  });
});
