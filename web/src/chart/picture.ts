import { CHART_FONT } from '../market/candle-chart';
import { CAPTION_COLORS, captionLayout, type PictureCaption } from './picture-caption';

function loadImage(url: string): Promise<HTMLImageElement> {
  return new Promise((resolve, reject) => {
    const image = new Image();
    image.onload = () => resolve(image);
    image.onerror = () => reject(new Error('The chart picture could not be read.'));
    image.src = url;
  });
}

/**
 * The chart's picture (a PNG data URL at the screen's pixel ratio, `pixelRatio` device pixels per
 * CSS pixel) under a caption strip: the instrument and period on the left, the time on the right,
 * on the theme's background. Answers the PNG.
 */
export async function captionedPicture(chartUrl: string, caption: PictureCaption, scheme: 'light' | 'dark', pixelRatio: number): Promise<Blob> {
  const image = await loadImage(chartUrl);
  const ratio = pixelRatio > 0 ? pixelRatio : 1;
  const width = image.naturalWidth / ratio;
  const height = image.naturalHeight / ratio;
  const canvas = document.createElement('canvas');
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error('The chart picture could not be drawn.');
  const titleFont = `600 14px ${CHART_FONT}`;
  const timeFont = `400 12px ${CHART_FONT}`;
  ctx.font = titleFont;
  const titleWidth = ctx.measureText(caption.title).width;
  ctx.font = timeFont;
  const place = captionLayout(width, titleWidth, ctx.measureText(caption.time).width);
  // Sizing the canvas resets its state: measured first, drawn after.
  canvas.width = image.naturalWidth;
  canvas.height = Math.round((height + place.height) * ratio);
  const colors = CAPTION_COLORS[scheme];
  ctx.scale(ratio, ratio);
  ctx.fillStyle = colors.background;
  ctx.fillRect(0, 0, width, height + place.height);
  ctx.textBaseline = 'middle';
  ctx.font = titleFont;
  ctx.fillStyle = colors.title;
  ctx.fillText(caption.title, place.title.x, place.title.y);
  ctx.font = timeFont;
  ctx.fillStyle = colors.time;
  ctx.fillText(caption.time, place.time.x, place.time.y);
  ctx.fillStyle = colors.rule;
  ctx.fillRect(0, place.height - 1, width, 1);
  ctx.drawImage(image, 0, place.height, width, height);
  return new Promise((resolve, reject) => canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('The chart picture could not be saved.'))), 'image/png'));
}
