// The funnel's stages in order, with their names on screen.
export const STAGES = [
  ["assigned", "Assigned"],
  ["surfaced", "Surfaced"],
  ["viewed", "Viewed"],
  ["claimable", "Claimable"],
  ["claimed", "Claimed"],
  ["expired", "Expired"],
] as const;
