// A message page of the rewards page (a link used or expired, no session, the service away), in its look.
import type { ReactNode } from "react";
import styles from "./rewards.module.css";

export function RewardsMessage({ title, tone = "info", testId, children }: { title: string; tone?: "info" | "warning" | "error"; testId: string; children: ReactNode }) {
  return (
    <section className={[styles.message, styles[`message_${tone}`]].join(" ")} role={tone === "error" ? "alert" : "status"} data-testid={testId}>
      <h1>{title}</h1>
      {children}
    </section>
  );
}
