/**
 * Texts of git blobs by their sha, bounded by size, least recently used first out. A blob's sha names
 * its content, so an entry is never stale and two instances never disagree: a component page that
 * shows a record's YAML reads it from here, not from git on every request.
 */
export class BlobTexts {
  private readonly texts = new Map<string, string>();
  private held = 0;

  constructor(
    private readonly read: (sha: string) => Promise<string | null>,
    /** Characters held at most (a record file is at most a few hundred KB; the default holds thousands). */
    private readonly maxChars = 8 * 1024 * 1024,
  ) {}

  /** The blob's text; null when the repository has no such blob. */
  async get(sha: string): Promise<string | null> {
    const hit = this.texts.get(sha);
    if (hit !== undefined) {
      // Most recently used last: Map keeps insertion order.
      this.texts.delete(sha);
      this.texts.set(sha, hit);
      return hit;
    }
    const text = await this.read(sha);
    if (text !== null) this.keep(sha, text);
    return text;
  }

  /** How many texts are held (for tests and metrics). */
  get size(): number {
    return this.texts.size;
  }

  private keep(sha: string, text: string): void {
    // One text never takes more than an eighth of the room, so a huge file does not empty the rest.
    if (text.length > this.maxChars / 8 || this.texts.has(sha)) return;
    this.texts.set(sha, text);
    this.held += text.length;
    for (const [oldest, old] of this.texts) {
      if (this.held <= this.maxChars) break;
      this.texts.delete(oldest);
      this.held -= old.length;
    }
  }
}
