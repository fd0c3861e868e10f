/**
 * Setup of the rendered-component tests (project "unit-dom"), run before each file. The files of a worker share
 * one module graph, so what every file needs is done here, not when a module is first imported: the cleanup of
 * what a test rendered, and the pieces jsdom lacks (the modal <dialog>, CSS.escape).
 */
import { afterEach, vi } from "vitest";
import { cleanup } from "@testing-library/react";

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

// jsdom has <dialog> but not its modal methods.
if (typeof HTMLDialogElement !== "undefined" && !HTMLDialogElement.prototype.showModal) {
  HTMLDialogElement.prototype.showModal = function showModal(this: HTMLDialogElement) {
    this.setAttribute("open", "");
  };
  HTMLDialogElement.prototype.close = function close(this: HTMLDialogElement) {
    if (!this.hasAttribute("open")) return;
    this.removeAttribute("open");
    this.dispatchEvent(new Event("close"));
  };
}

// jsdom has no CSS.escape (user-event uses it to walk a radio group with the arrow keys).
if (typeof window !== "undefined" && !window.CSS?.escape) {
  Object.defineProperty(window, "CSS", { value: { ...window.CSS, escape: (value: string) => value.replace(/[^\w-]/g, (c) => `\\${c}`) }, configurable: true });
}
