// The changes of a merge request, file by file: removed and added lines on a numbered table (comments kept).
import type { ScmFileDiff } from "@/lib/scm/types";
import { diffLines } from "./diff-lines";
import styles from "./reviews.module.css";

function fileLabel(f: ScmFileDiff): string {
  if (f.newFile) return `${f.newPath} (new file)`;
  if (f.deletedFile) return `${f.oldPath} (deleted)`;
  if (f.oldPath !== f.newPath) return `${f.oldPath} → ${f.newPath}`;
  return f.newPath;
}

export function DiffView({ files }: { files: ScmFileDiff[] }) {
  if (files.length === 0) return <p className="muted">This merge request changes no file.</p>;
  return (
    <div className="stack" data-testid="review-diff">
      {files.map((f) => (
        <section key={`${f.oldPath}→${f.newPath}`} className={styles.file} aria-label={fileLabel(f)}>
          <h3 className={styles.fileName}>
            <code>{fileLabel(f)}</code>
          </h3>
          {f.diff === "" ? (
            <p className="muted">No text changes to show (a binary file, or only its mode changed).</p>
          ) : (
            // Focusable and named: a keyboard scrolls a long line into view (WCAG 2.1.1).
            <div className={styles.diffScroll} tabIndex={0} role="region" aria-label={`Changes of ${fileLabel(f)}`}>
              <table className={styles.diff}>
                <tbody>
                  {diffLines(f.diff).map((l, i) => (
                    <tr key={i} className={styles[l.kind]} data-kind={l.kind}>
                      <td className={styles.lineNo} aria-hidden="true">
                        {l.oldLine ?? ""}
                      </td>
                      <td className={styles.lineNo} aria-hidden="true">
                        {l.newLine ?? ""}
                      </td>
                      <td className={styles.sign} aria-hidden="true">
                        {l.kind === "add" ? "+" : l.kind === "del" ? "−" : ""}
                      </td>
                      <td className={styles.code}>
                        {l.kind === "add" ? <span className="visually-hidden">added: </span> : l.kind === "del" ? <span className="visually-hidden">removed: </span> : null}
                        {l.text}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </section>
      ))}
    </div>
  );
}
