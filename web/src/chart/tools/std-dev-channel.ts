import { fittedChannel } from './regression-channel';
import { residuals, type ToolDefinition } from './shape';

/** Standard deviations of the band of the standard deviation channel. */
export const STD_DEV_BAND = 2;

/** Linear regression of the closes between the points with a band of two standard deviations. */
export const stdDevChannel: ToolDefinition = {
  name: 'stdDevChannel',
  label: 'Standard deviation channel',
  menu: 'channels',
  points: 2,
  geometry: (input) => fittedChannel(input, (closes, fit) => STD_DEV_BAND * residuals(closes, fit).stdDev),
};
