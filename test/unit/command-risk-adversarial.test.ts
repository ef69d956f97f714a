import { strict as assert } from "node:assert";
import { assessCommand } from "../../agent/tools/safety/command-risk.js";
import { OPTIONS } from "../helpers/command-risk-cases.js";

describe("assessCommand on adversarial input", () => {
  // Each input is about 100,000 characters with a separator now and then (a separator-free command that long is
  // rejected up front). There is no timing assertion: the mocha timeout is the bound.
  const sprinkle = (unit: string, separator = ";"): string => {
    const body = unit.repeat(Math.ceil(100_000 / unit.length)).slice(0, 100_000);
    let out = "";
    for (let i = 0; i < body.length; i += 3_000) out += body.slice(i, i + 3_000) + separator;
    return out;
  };
  const inputs: ReadonlyArray<readonly [name: string, text: string]> = [
    ["repeated dd words", sprinkle("dd ")],
    ["rm inside flag words", `rm ${sprinkle("-rm ")}`],
    ["kill inside flag words", sprinkle("-kill\n", " ")],
    ["newline and space runs", sprinkle(`\n${" ".repeat(12)}`, " ")],
    ["command starts inside sudo flags", sprinkle("`sudo -`")],
    ["tee and dotted env names", `tee ${sprinkle(".env.")}`],
    ["openssl decode words", sprinkle("openssl base64 ")],
    ["unterminated OSC escapes", sprinkle("\x1b]x")],
    ["nested substitutions", sprinkle("$(")],
    ["nested shell payloads", sprinkle("bash -c '")],
    ["chained shell payloads", sprinkle('bash -c "x; ')],
    ["hermes flags", `hermes ${sprinkle("-a ")}`],
    ["DELETE FROM on one line", sprinkle("delete from x ")],
    ["unclosed expansions", sprinkle("${IFS${a:-${a/")],
    ["a heredoc of code", `cat > f.py <<'EOF'\n${"def f(x):\n    return x  # don't\n".repeat(3_000)}EOF`],
  ];
  for (const [name, text] of inputs) {
    it(`finishes: ${name}`, function () {
      this.timeout(5_000);
      const risk = assessCommand(text, OPTIONS);
      assert.ok(["hardline", "dangerous", "safe"].includes(risk.level));
    });
  }
});
