// The widgets' JSDoc `@typedef`s read from the modules in js/, and a check that a value has the
// declared shape: the render tests hold their states and the widgets' messages to it. The Python
// side (tests/unit/test_widget_schema.py) checks that these typedefs match the TypedDicts.
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const JS = fileURLToPath(new URL("..", import.meta.url));

function braced(text, start) {
  let depth = 0;
  for (let i = start; i < text.length; i += 1) {
    depth += text[i] === "{" ? 1 : text[i] === "}" ? -1 : 0;
    if (depth === 0) return [text.slice(start + 1, i), i + 1];
  }
  throw new Error(`unbalanced braces in ${text}`);
}

/** Every typedef of the modules in js/: `{name: {properties, alias}}`; imports are skipped. */
export function readTypedefs(folder = JS) {
  const typedefs = {};
  for (const file of readdirSync(folder).filter((name) => name.endsWith(".js"))) {
    const source = readFileSync(`${folder}/${file}`, "utf8");
    for (const [, block] of source.matchAll(/\/\*\*([\s\S]*?)\*\//g)) {
      const text = block
        .split("\n")
        .map((line) => line.trim().replace(/^\*/, "").trim())
        .join(" ");
      const at = text.indexOf("@typedef");
      if (at < 0) continue;
      const [body, end] = braced(text, text.indexOf("{", at));
      if (body.startsWith("import(")) continue;
      const name = text.slice(end).trim().split(/\s+/)[0];
      const properties = {};
      for (const match of text.matchAll(/@property\s+\{/g)) {
        const [type, after] = braced(text, match.index + match[0].length - 1);
        const key = text.slice(after).trim().split(/\s+/)[0];
        const optional = key.startsWith("[");
        properties[key.replace(/[[\]]/g, "")] = { type: parseType(type), optional };
      }
      typedefs[name] = { file, properties, alias: body === "Object" ? null : parseType(body) };
    }
  }
  return typedefs;
}

const TOKEN = /\s*(Array<|Object<|"[^"]*"|[A-Za-z_*][\w.]*|[|&<>[\](),{}:?])/y;

/** The tree of a JSDoc type expression: `{kind, ...}` nodes for unions, arrays, tuples, names. */
export function parseType(text) {
  const tokens = [];
  TOKEN.lastIndex = 0;
  let match;
  while (TOKEN.lastIndex < text.trimEnd().length && (match = TOKEN.exec(text))) {
    tokens.push(match[1]);
  }
  if (tokens.join("").replace(/\s+/g, "") !== text.replace(/\s+/g, "")) {
    throw new Error(`cannot read the type ${text}`);
  }
  let at = 0;
  const expect = (token) => {
    if (tokens[at] !== token) throw new Error(`expected ${token} in ${text}`);
    at += 1;
  };
  const union = () => {
    const members = [intersection()];
    while (tokens[at] === "|") {
      at += 1;
      members.push(intersection());
    }
    return members.length === 1 ? members[0] : { kind: "union", members };
  };
  const postfix = () => {
    let tree = primary();
    while (tokens[at] === "[" && tokens[at + 1] === "]") {
      at += 2;
      tree = { kind: "array", item: tree };
    }
    return tree;
  };
  const intersection = () => {
    const parts = [postfix()];
    while (tokens[at] === "&") {
      at += 1;
      parts.push(postfix());
    }
    return parts.length === 1 ? parts[0] : { kind: "and", parts };
  };
  const primary = () => {
    const head = tokens[at];
    at += 1;
    if (head === "(") {
      const inner = union();
      expect(")");
      return inner;
    }
    if (head === "Array<") {
      const item = union();
      expect(">");
      return { kind: "array", item };
    }
    if (head === "Object<") {
      expect("string");
      expect(",");
      const item = union();
      expect(">");
      return { kind: "map", item };
    }
    if (head === "[") {
      const items = [union()];
      while (tokens[at] === ",") {
        at += 1;
        items.push(union());
      }
      expect("]");
      return { kind: "tuple", items };
    }
    if (head === "{") {
      const properties = {};
      while (tokens[at] !== "}") {
        const key = tokens[at];
        at += 1;
        const optional = tokens[at] === "?";
        if (optional) at += 1;
        expect(":");
        properties[key] = { type: union(), optional };
        if (tokens[at] === ",") at += 1;
      }
      at += 1;
      return { kind: "object", properties };
    }
    if (head.startsWith('"')) return { kind: "literal", value: head.slice(1, -1) };
    if (["string", "number", "boolean", "null", "*"].includes(head)) return { kind: head };
    return { kind: "ref", name: head };
  };
  const tree = union();
  if (at !== tokens.length) throw new Error(`unexpected ${tokens[at]} in ${text}`);
  return tree;
}

const TYPEDEFS = readTypedefs();

/** The properties of a typedef, those of `A & B` merged. */
export function propertiesOf(name, typedefs = TYPEDEFS) {
  const typedef = typedefs[name];
  if (!typedef) throw new Error(`no typedef ${name} in js/`);
  if (typedef.alias === null) return typedef.properties;
  if (typedef.alias.kind === "and") {
    const parts = typedef.alias.parts.map((part) => propertiesOf(part.name, typedefs));
    return Object.assign({}, ...parts);
  }
  if (typedef.alias.kind === "ref") return propertiesOf(typedef.alias.name, typedefs);
  return null;
}

function isObject(value) {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function objectProblems(value, properties, where, name) {
  if (!isObject(value)) {
    return [`${where}: expected an object (${name}), got ${JSON.stringify(value)}`];
  }
  const found = [];
  for (const key of Object.keys(value)) {
    if (!(key in properties)) found.push(`${where}: undeclared key ${key}`);
    else found.push(...problemsOf(value[key], properties[key].type, `${where}.${key}`));
  }
  for (const [key, property] of Object.entries(properties)) {
    if (!property.optional && !(key in value)) found.push(`${where}: missing key ${key}`);
  }
  return found;
}

function problemsOf(value, tree, where) {
  const wrong = (what) => [`${where}: expected ${what}, got ${JSON.stringify(value)}`];
  switch (tree.kind) {
    case "string":
    case "number":
    case "boolean":
      return typeof value === tree.kind ? [] : wrong(tree.kind);
    case "null":
      return value === null ? [] : wrong("null");
    case "*":
      return [];
    case "literal":
      return value === tree.value ? [] : wrong(JSON.stringify(tree.value));
    case "array":
      return Array.isArray(value)
        ? value.flatMap((item, i) => problemsOf(item, tree.item, `${where}[${i}]`))
        : wrong("an array");
    case "tuple":
      return Array.isArray(value) && value.length === tree.items.length
        ? value.flatMap((item, i) => problemsOf(item, tree.items[i], `${where}[${i}]`))
        : wrong(`${tree.items.length} items`);
    case "map":
      return isObject(value)
        ? Object.entries(value).flatMap(([k, item]) => problemsOf(item, tree.item, `${where}.${k}`))
        : wrong("an object");
    case "union": {
      const tried = tree.members.map((member) => problemsOf(value, member, where));
      return tried.some((found) => found.length === 0)
        ? []
        : tried.reduce((a, b) => (b.length < a.length ? b : a));
    }
    case "ref": {
      const properties = propertiesOf(tree.name);
      return properties
        ? objectProblems(value, properties, where, tree.name)
        : problemsOf(value, TYPEDEFS[tree.name].alias, where);
    }
    case "object":
      return objectProblems(value, tree.properties, where, "object");
    case "and":
      return objectProblems(
        value,
        Object.assign({}, ...tree.parts.map((part) => propertiesOf(part.name))),
        where,
        "intersection",
      );
    default:
      throw new Error(`no check for ${tree.kind}`);
  }
}

/** Where `value` breaks the JSDoc type `type` (a typedef name or an expression); [] if nowhere. */
export function problems(value, type) {
  return problemsOf(value, parseType(type), "$");
}
