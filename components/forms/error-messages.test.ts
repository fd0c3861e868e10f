import { describe, expect, it } from "vitest";
import { recordFieldLabel } from "./error-messages";

describe("record field labels", () => {
  it("names a record's fields as the edit form does, counting from 1", () => {
    expect(recordFieldLabel("metadata.displayName")).toBe("Display name");
    expect(recordFieldLabel("spec.owners[0].user")).toBe("Owner 1 user");
    expect(recordFieldLabel("metadata.links[2].url")).toBe("Link 3 address");
    expect(recordFieldLabel("spec.runtime.k8s.namespaces.staging")).toBe("Namespace for staging");
    expect(recordFieldLabel("metadata.tags[0]")).toBe("Tag 1");
  });

  it("reads an unknown path as itself, and the empty path as the record", () => {
    expect(recordFieldLabel("spec.somethingNew")).toBe("spec.somethingNew");
    expect(recordFieldLabel("")).toBe("The record");
  });
});
