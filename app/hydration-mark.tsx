"use client";
// Marks the document once React has hydrated it: <html data-hydrated="true">. Until then a production
// page shows but ignores clicks and typing; the browser journeys (e2e/fixtures.ts) wait for the mark
// after every full page load instead of retrying what was lost. Set from an effect, not an inline
// script: the page's Content-Security-Policy allows only the build's own scripts.
import { useEffect } from "react";

export function HydrationMark(): null {
  useEffect(() => {
    document.documentElement.dataset.hydrated = "true";
  }, []);
  return null;
}
