// An offer's (or a currency's) image, or a placeholder of the same size. No hooks.
import styles from "./offer-parts.module.css";

export function OfferImage({ src, size = 48 }: { src?: string; size?: number }) {
  if (!src) return <span className={styles.offerImagePlaceholder} style={{ width: size, height: size }} aria-hidden="true" />;
  // eslint-disable-next-line @next/next/no-img-element -- offer images are data: or remote URLs of the game
  return <img src={src} alt="" width={size} height={size} className={styles.offerImage} />;
}
