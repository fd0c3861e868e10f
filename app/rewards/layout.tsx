// The players' rewards page has its own simple layout: no portal navigation and no portal sign-in.
import type { Metadata } from "next";
import type { ReactNode } from "react";
import styles from "@/components/rewards/rewards.module.css";

export const metadata: Metadata = {
  title: { absolute: "Your rewards" },
  description: "Your offers and rewards.",
  // Nothing of this page is sent to other sites as a referrer. Not "no-referrer": browsers then send
  // `Origin: null` with the claim form's POST, which Next refuses as a cross-site server action.
  referrer: "same-origin",
  robots: { index: false, follow: false },
};

export default function RewardsLayout({ children }: { children: ReactNode }) {
  return (
    <div className={styles.shell}>
      <header className={styles.header}>
        <span className={styles.brand}>Rewards</span>
      </header>
      <main className={styles.main}>{children}</main>
    </div>
  );
}
