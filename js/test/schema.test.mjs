import assert from "node:assert/strict";
import { test } from "node:test";

import { FakeModel } from "./fake_model.mjs";
import { parseType, problems, propertiesOf } from "./schema.mjs";

test("the types are read from the generated schema modules, intersections merged", () => {
  assert.deepEqual(Object.keys(propertiesOf("FrameMessage")), ["type", "index"]);
  assert.ok("leaf" in propertiesOf("LeafView") && "facets" in propertiesOf("LeafView"));
  assert.deepEqual(parseType("Array<[number, string|null]>"), {
    kind: "array",
    item: {
      kind: "tuple",
      items: [
        { kind: "number" },
        { kind: "union", members: [{ kind: "string" }, { kind: "null" }] },
      ],
    },
  });
  assert.deepEqual(parseType("string[][]"), parseType("Array<Array<string>>"));
  const inline = "{name: string, size?: number}|null";
  assert.deepEqual(problems({ name: "x" }, inline), []);
  assert.deepEqual(problems({ name: "x", size: "1" }, inline), ['$.size: expected number, got "1"']);
  assert.throws(() => parseType("Array<number"));
});

test("a value with a wrong type, a missing key or an undeclared key is reported", () => {
  assert.deepEqual(problems({ type: "frame", index: 2 }, "DebuggerMessage"), []);
  assert.deepEqual(problems({ type: "frame", index: "2" }, "FrameMessage"), [
    '$.index: expected number, got "2"',
  ]);
  assert.deepEqual(problems({ type: "frame" }, "FrameMessage"), ["$: missing key index"]);
  assert.deepEqual(problems({ type: "frame", index: 1, extra: 0 }, "FrameMessage"), [
    "$: undeclared key extra",
  ]);
  assert.notDeepEqual(problems({ type: "jump", index: 1 }, "DebuggerMessage"), []);
  assert.deepEqual(problems({}, "LeafView|NoLeaf"), []);
});

test("the fake model refuses undeclared traits and messages outside the schema", () => {
  const model = new FakeModel("PrintLogModel", { query: "", limit: 5 });
  assert.throws(() => model.get("filter"), /not a trait of PrintLogModel/);
  assert.throws(() => model.set("limit", "5"), /breaks the schema/);
  assert.throws(() => model.send({ type: "rendered" }), /sends no messages/);
  const debuggerModel = new FakeModel("DebuggerModel", {}, { messageType: "DebuggerMessage" });
  assert.throws(() => debuggerModel.send({ type: "frame", index: null }));
  debuggerModel.send({ type: "rendered" });
  assert.deepEqual(debuggerModel.sent, [{ type: "rendered" }]);
});
