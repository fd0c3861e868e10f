// Placeholder: the system tier's built offers bundle (filled in by the system-tier work).
export default function setup(): void {}
