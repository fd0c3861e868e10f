"use client";
import { useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import styles from "./catalog.module.css";
import { setFavorite } from "./api";

/** The favorite star: optimistic, rolled back when the server refuses. */
export function StarButton({ name, initial, onChange }: { name: string; initial: boolean; onChange?: (favorite: boolean) => void }) {
  const [favorite, setFav] = useState(initial);
  const [busy, setBusy] = useState(false);
  const queryClient = useQueryClient();
  const toggle = async () => {
    const next = !favorite;
    setFav(next);
    setBusy(true);
    try {
      await setFavorite(name, next);
      onChange?.(next);
      await queryClient.invalidateQueries({ queryKey: ["catalog"] });
    } catch {
      setFav(!next);
    } finally {
      setBusy(false);
    }
  };
  return (
    <button
      type="button"
      className={styles.star}
      aria-pressed={favorite}
      aria-label={favorite ? `Remove ${name} from favorites` : `Add ${name} to favorites`}
      title={favorite ? "Remove from favorites" : "Add to favorites"}
      disabled={busy}
      onClick={toggle}
      data-testid={`star-${name}`}
    >
      {favorite ? "★" : "☆"}
    </button>
  );
}
