/**
 * Write-back through yaml's Document API: the new record is synced into the existing document node
 * by node, so comments, key order, quoting and blank lines stay wherever the value did not change.
 * Keys that disappear are deleted; new keys are appended in the order of the new record.
 * Client-safe (no Node imports): the edit form uses it to preview the exact YAML it will save.
 */
import { Document, isMap, isPair, isScalar, isSeq, parseDocument, type Node, type Pair } from "yaml";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** RFC 7386 JSON merge patch: objects merge, null deletes, anything else (arrays too) replaces. */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isPlainObject(patch)) return patch;
  const base: Record<string, unknown> = isPlainObject(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete base[key];
    else base[key] = mergePatch(base[key], value);
  }
  return base;
}

function keyOf(pair: Pair): unknown {
  return isScalar(pair.key) ? pair.key.value : pair.key;
}

function syncNode(doc: Document, node: unknown, value: unknown): unknown {
  if (isPlainObject(value)) {
    if (isMap(node)) {
      const wanted = Object.entries(value).filter(([, v]) => v !== undefined);
      const wantedKeys = new Set(wanted.map(([k]) => k));
      node.items = node.items.filter((pair) => isPair(pair) && wantedKeys.has(String(keyOf(pair))));
      for (const [key, v] of wanted) {
        const pair = node.items.find((p) => String(keyOf(p)) === key);
        if (pair) pair.value = syncNode(doc, pair.value, v) as Node;
        else node.items.push(doc.createPair(key, v) as Pair);
      }
      return node;
    }
    return doc.createNode(value);
  }
  if (Array.isArray(value)) {
    if (isSeq(node)) {
      value.forEach((item, i) => {
        if (i < node.items.length) node.items[i] = syncNode(doc, node.items[i], item);
        else node.items.push(doc.createNode(item));
      });
      node.items.splice(value.length);
      return node;
    }
    return doc.createNode(value);
  }
  if (isScalar(node)) {
    if (node.value !== value) {
      // A changed value loses a quoting style chosen for the old one only when it must.
      node.value = value;
    }
    return node;
  }
  return doc.createNode(value);
}

/** Syncs `value` into the document in place. */
export function syncDocument(doc: Document, value: unknown): Document {
  doc.contents = syncNode(doc, doc.contents, value) as Document["contents"];
  return doc;
}

/**
 * The text of `currentText` after writing `value` into it. When the current text is not valid YAML,
 * a fresh document is written (nothing to keep).
 */
export function renderUpdate(currentText: string, value: Json | Record<string, unknown>): string {
  const doc = parseDocument(currentText, { uniqueKeys: false });
  if (doc.errors.length > 0 || doc.contents === null) {
    return new Document(value).toString({ lineWidth: 0, flowCollectionPadding: false });
  }
  syncDocument(doc, value);
  return doc.toString({ lineWidth: 0, flowCollectionPadding: false });
}
