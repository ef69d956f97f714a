import assert from "node:assert/strict";
import { compactSnapshot, countRefs, refSelector } from "../../agent/tools/browser/snapshot-text.js";

// Playwright's "ai" snapshot of a page whose heading sits in two bare divs.
const SNAPSHOT = `- generic [active] [ref=e1]:
  - main [ref=e2]:
    - generic [ref=e3]:
      - generic [ref=e4]:
        - heading "Tide planner" [level=1] [ref=e5]
    - generic [ref=e6]: Harbour name
    - textbox "Harbour name" [ref=e7]
    - button "Plan" [ref=e8]
    - link "Almanac" [ref=e9] [cursor=pointer]:
      - /url: /almanac`;

describe("browser snapshot text", () => {
  it("drops empty wrappers in the compact view and moves their children up, keeping text and refs", () => {
    assert.equal(
      compactSnapshot(SNAPSHOT),
      `- main [ref=e2]:
  - heading "Tide planner" [level=1] [ref=e5]
  - generic [ref=e6]: Harbour name
  - textbox "Harbour name" [ref=e7]
  - button "Plan" [ref=e8]
  - link "Almanac" [ref=e9] [cursor=pointer]:
    - /url: /almanac`,
    );
  });

  it("counts the refs a snapshot offers", () => {
    assert.equal(countRefs(SNAPSHOT), 9);
    assert.equal(countRefs("- text: nothing to click"), 0);
  });

  it("reads refs as upstream writes them, and refuses what is not one", () => {
    for (const ref of ["@e5", "e5", " @e5 ", "[ref=e5]", "ref=e5"]) assert.equal(refSelector(ref), "aria-ref=e5", ref);
    assert.equal(refSelector("f1e12"), "aria-ref=f1e12");
    for (const bad of ["", "button", "#submit", "e5; drop", "aria-ref=e5 >> css=div"])
      assert.equal(refSelector(bad), undefined, bad);
  });
});
