"use client";
import { useEffect, useState } from "react";

/** Seconds since `since` while running, ticking twice a second. */
export function useElapsed(running: boolean, since: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!running) return;
    const id = setInterval(() => setNow(Date.now()), 500);
    return () => clearInterval(id);
  }, [running]);
  return running ? Math.max(0, Math.round((now - since) / 1000)) : 0;
}
