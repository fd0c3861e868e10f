/** The documentation's link check (scripts/check-doc-links.mjs). */
export declare function documentationFiles(root?: string): string[];
export declare function slugOf(heading: string): string;
export declare function anchorsOf(file: string): Set<string>;
export declare function linkTargets(text: string): string[];
export declare function brokenLinks(root?: string): string[];
