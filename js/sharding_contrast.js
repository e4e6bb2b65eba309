// Colour contrast: pick black or white text for a cell background (WCAG 2 contrast ratio).

export function parseHex(color) {
  const match = /^#?([0-9a-f]{6})$/i.exec(String(color).trim());
  if (!match) throw new Error(`not a #RRGGBB colour: ${color}`);
  const value = parseInt(match[1], 16);
  return [(value >> 16) & 255, (value >> 8) & 255, value & 255];
}

export function relativeLuminance(color) {
  const [r, g, b] = parseHex(color).map((v) => {
    const c = v / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

export function contrastRatio(a, b) {
  const [hi, lo] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

export function textColorFor(background) {
  return contrastRatio(background, "#000000") >= contrastRatio(background, "#ffffff")
    ? "#000000"
    : "#ffffff";
}
