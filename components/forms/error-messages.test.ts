import { describe, expect, it } from "vitest";
import { labelledIssue, recordFieldLabel, recordIssueSentence } from "./error-messages";

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

  it("says a message that names its field by key with the field's label instead", () => {
    expect(labelledIssue("metadata.displayName", "displayName must not be empty")).toBe("Display name must not be empty.");
    expect(labelledIssue("spec.library.defaultRegistry", "defaultRegistry must not be empty")).toBe("Default registry must not be empty.");
    expect(labelledIssue("spec.repo.path", "repository path must have the form <group>/<project>")).toBe("Repository path must have the form <group>/<project>.");
    expect(labelledIssue("metadata.name", "ledger is already in the catalog")).toBeUndefined();
    expect(recordIssueSentence("metadata.displayName", "displayName must not be empty")).toBe("Display name must not be empty.");
    expect(recordIssueSentence("spec.repo.path", "repository path must have the form <group>/<project>")).toBe("Repository path must have the form <group>/<project>.");
    expect(recordIssueSentence("metadata.name", "ledger is already in the catalog")).toBe("Name: ledger is already in the catalog");
  });
});
