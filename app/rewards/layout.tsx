// The players' rewards page has its own simple layout: no portal navigation and no portal sign-in.
import type { Metadata } from "next";
import type { ReactNode } from "react";
import styles from "@/components/rewards/rewards.module.css";

export const metadata: Metadata = {
  title: { absolute: "Your rewards" },
  description: "Your offers and rewards.",
  // The link that opens this page carries a one-time token: never send it on as a referrer.
  referrer: "no-referrer",
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
