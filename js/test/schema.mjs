// The widgets' types as data, read from js/schema/ (generated from the Python TypedDicts by
// `python -m tests.unit.schema_js`), and a check that a value has the declared shape: the render
// tests hold their states and the widgets' messages to it.
import { readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";

const SCHEMA = fileURLToPath(new URL("../schema", import.meta.url));

/** Every generated type: `{name: {properties, alias}}`, each type expression read as a tree. */
async function readTypes(folder = SCHEMA) {
  const typedefs = {};
  for (const file of readdirSync(folder).filter((name) => name.endsWith(".js"))) {
    const { TYPES } = await import(`${folder}/${file}`);
    for (const [name, declared] of Object.entries(TYPES)) {
      if (typeof declared === "string") {
        typedefs[name] = { file, properties: {}, alias: parseType(declared) };
        continue;
      }
      const properties = {};
      for (const [key, type] of Object.entries(declared)) {
        const optional = key.startsWith("[");
        properties[key.replace(/[[\]]/g, "")] = { type: parseType(type), optional };
      }
      typedefs[name] = { file, properties, alias: null };
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

const TYPEDEFS = await readTypes();

/** The properties of a typedef, those of `A & B` merged. */
export function propertiesOf(name, typedefs = TYPEDEFS) {
  const typedef = typedefs[name];
  if (!typedef) throw new Error(`no type ${name} in js/schema/`);
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
