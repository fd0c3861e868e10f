"use client";
// The live/test switch of the offers pages: which environment the page shows, said in words and colour
// (test is a striped orange bar and an orange frame around the window, so it is never taken for live),
// and a radio group that moves the page to the other environment (the URL's env parameter).
import { useState } from "react";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { ENVIRONMENTS, pageHref, type Environment } from "./environment";
import { useOffersEnvironment } from "./environment-context";
import styles from "./offers-environment.module.css";

const LABEL: Record<Environment, string> = { live: "Live", test: "Test" };

export function EnvironmentSwitch() {
  const { environment } = useOffersEnvironment();
  const router = useRouter();
  const pathname = usePathname();
  const searchParams = useSearchParams();
  // The choice shows at once; the page follows when the navigation lands (then `environment` is the choice).
  const [asked, setAsked] = useState<{ from: Environment; to: Environment } | null>(null);
  const chosen = asked && asked.from === environment ? asked.to : environment;

  const switchTo = (next: Environment) => {
    if (next === chosen) return;
    setAsked({ from: environment, to: next });
    const query = searchParams?.toString() ?? "";
    router.push(pageHref(`${pathname ?? "/"}${query ? `?${query}` : ""}`, next));
  };

  const test = environment === "test";
  return (
    <section className={[styles.bar, test ? styles.test : styles.live].join(" ")} aria-label="Offers environment" data-testid="environment-bar" data-environment={environment}>
      {test ? <div className={styles.frame} aria-hidden="true" data-testid="test-frame" /> : null}
      <p className={styles.says} aria-live="polite">
        <strong className={styles.mark} data-testid="environment-label">
          {test ? "Test environment" : "Live environment"}
        </strong>
        <span className={styles.note}>{test ? "Test players, offers and webhooks of each game. Nothing here reaches live players." : "Real players: what you change here reaches them."}</span>
      </p>
      <div role="radiogroup" aria-label="Environment" className={styles.switch} aria-busy={chosen !== environment}>
        {ENVIRONMENTS.map((value) => (
          <label key={value} className={styles.option}>
            <input type="radio" className={styles.radio} name="offers-environment" value={value} checked={chosen === value} onChange={() => switchTo(value)} />
            <span className={styles.optionText}>{LABEL[value]}</span>
          </label>
        ))}
      </div>
    </section>
  );
}
