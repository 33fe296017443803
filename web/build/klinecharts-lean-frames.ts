import type { Plugin } from 'vite';
import { keepUnchangedLayers } from './klinecharts-unchanged-layers';

/**
 * KLineChart redraws every canvas on every tick, and much of a frame is bookkeeping around the
 * drawing rather than drawing. This build step keeps every canvas call, in the same order with
 * the same arguments, and removes only bookkeeping that cannot change them:
 * - each candle's rectangles are drawn by KLineChart's own `drawRect`, the function its rect figure
 *   draws with, instead of through a figure object (an event target with a callback map and a click
 *   handler, two per candle, made anew on every frame); while the rect figure is KLineChart's own:
 *   one registered over it is used as before;
 * - the candles' click targets (KLineChart's `onCandleBarClick` action) are one object per frame
 *   that tests the same rectangles, in the same order, as the figure objects did;
 * - each drawing's figures are drawn by their figure's own drawing function, and the event target
 *   that stands for each makes the five pointer handlers KLineChart made for it on every frame
 *   (`_createFigureEvents`) only when an event reaches it;
 * - whether a colour is transparent (two regular expressions) is kept by colour;
 * - the price and time axes' overlay views pass over an overlay they draw nothing of (one with no
 *   axis figures of its own that is not selected) instead of placing its points first;
 * - where a time falls among the candles (a binary search for each point of each drawing, three
 *   times a frame: the pane, the price axis and the time axis) is kept while the candles' times
 *   are the same (the same list, length and last time: KLineChart only appends, or replaces the
 *   forming candle in place);
 * - the decimal-folding formatter's regular expression is made once per threshold, not per label,
 *   and the thousands formatter returns at once a number with fewer than four integer digits (which
 *   its expression could not change).
 *
 * These keep KLineChart's pixels exactly: a browser test (e2e/chart-lean-frames.e2e.ts) compares
 * every canvas with KLineChart's own. Skipping the canvases a tick did not change (the drawings,
 * the time axis) is a step of its own, `klinecharts-unchanged-layers.ts`, which the same plugin
 * applies after these and which keeps the chart looking the same rather than the same to the
 * pixel. The build fails if an upgrade changes the code patched here.
 */

interface Patch {
  /** What the patch is for, in the error an upgrade gets. */
  what: string;
  find: string;
  replace: string;
}

const PATCHES: Patch[] = [
  {
    what: 'isTransparent',
    find: `function isTransparent(color) {
    return color === 'transparent' ||`,
    replace: `/* Tradeport (web/build/klinecharts-lean-frames.ts): whether a colour is transparent, kept by colour. */
var keptTransparent = new Map();
function isTransparent(color) {
    if (typeof color !== 'string') {
        return isTransparentColor(color);
    }
    var transparent = keptTransparent.get(color);
    if (transparent === undefined) {
        if (keptTransparent.size >= 1024) {
            keptTransparent.clear();
        }
        transparent = isTransparentColor(color);
        keptTransparent.set(color, transparent);
    }
    return transparent;
}
function isTransparentColor(color) {
    return color === 'transparent' ||`,
  },
  {
    what: "the built-in figures' registration",
    find: `var extensions$1 = [circle, line, polygon, rect, text, arc, path];
// @ts-ignore
extensions$1.forEach(function (figure) {
    figures[figure.name] = FigureImp.extend(figure);
});`,
    replace: `var extensions$1 = [circle, line, polygon, rect, text, arc, path];
// @ts-ignore
extensions$1.forEach(function (figure) {
    figures[figure.name] = FigureImp.extend(figure);
});
/* Tradeport: KLineChart's own rect figure, which the candles may draw with drawRect directly. */
var builtInRectFigure = figures.rect;
/* The candles' click targets of one frame: each rectangle tested as its figure object would be, last drawn first. */
function CandleBarTargets(view) {
    this._view = view;
    this._attrs = [];
    this._data = [];
}
CandleBarTargets.prototype.add = function (attrs, data) {
    this._attrs.push(attrs);
    this._data.push(data);
};
/* A drawing's figure as an event target: what its figure object did with the handlers OverlayView made for it (_createFigureEvents), which are made here when an event reaches it. */
var OVERLAY_FIGURE_EVENTS = { mouseMoveEvent: '_figureMouseMoveEvent', mouseDownEvent: '_figureMouseDownEvent', mouseClickEvent: '_figureMouseClickEvent', mouseRightClickEvent: '_figureMouseRightClickEvent', mouseDoubleClickEvent: '_figureMouseDoubleClickEvent' };
function OverlayFigureTarget(view, FigureClazz, overlay, figureIndex, figure, attrs, styles) {
    this._view = view;
    this._clazz = FigureClazz;
    this._overlay = overlay;
    this._figureIndex = figureIndex;
    this._figure = figure;
    this.attrs = attrs;
    this.styles = styles;
}
OverlayFigureTarget.prototype.dispatchEvent = function (name, event) {
    var make = keptHasOwnEvent.call(OVERLAY_FIGURE_EVENTS, name) ? OVERLAY_FIGURE_EVENTS[name] : undefined;
    if (make === undefined || !this._clazz.prototype.checkEventOnImp(event, this.attrs, this.styles)) {
        return false;
    }
    return this._view[make](this._overlay, 'other', this._figureIndex, this._figure)(event);
};
var keptHasOwnEvent = Object.prototype.hasOwnProperty;
CandleBarTargets.prototype.dispatchEvent = function (name, event) {
    if (name !== 'mouseClickEvent') {
        return false;
    }
    for (var i = this._attrs.length - 1; i > -1; i--) {
        if (checkCoordinateOnRect(event, this._attrs[i]) && this._view._boundCandleBarClickEvent(this._data[i])(event)) {
            return true;
        }
    }
    return false;
};`,
  },
  {
    what: "the candle bars' start (the rect figure checked once a frame)",
    find: `            var yAxis_1 = pane.getYAxisComponentById(candleBarOptions.yAxisId);
            this.eachChildren(function (visibleData, barSpace) {`,
    replace: `            var yAxis_1 = pane.getYAxisComponentById(candleBarOptions.yAxisId);
            var directRects_1 = getInnerFigureClass('rect') === builtInRectFigure;
            var targets_1 = null;
            if (directRects_1 && isMain) {
                targets_1 = new CandleBarTargets(this);
                this.addChild(targets_1);
            }
            this.eachChildren(function (visibleData, barSpace) {`,
  },
  {
    what: "the candle bars' rectangles",
    find: `                    rects.forEach(function (rect) {
                        var _a;
                        var handler = null;
                        if (isMain) {
                            handler = {
                                mouseClickEvent: _this._boundCandleBarClickEvent(visibleData)
                            };
                        }
                        (_a = _this.createFigure(rect, handler !== null && handler !== void 0 ? handler : undefined)) === null || _a === void 0 ? void 0 : _a.draw(ctx);
                    });`,
    replace: `                    rects.forEach(function (rect) {
                        var _a;
                        if (directRects_1) {
                            if (targets_1 !== null) {
                                targets_1.add(rect.attrs, visibleData);
                            }
                            drawRect(ctx, rect.attrs, rect.styles);
                            return;
                        }
                        var handler = null;
                        if (isMain) {
                            handler = {
                                mouseClickEvent: _this._boundCandleBarClickEvent(visibleData)
                            };
                        }
                        (_a = _this.createFigure(rect, handler !== null && handler !== void 0 ? handler : undefined)) === null || _a === void 0 ? void 0 : _a.draw(ctx);
                    });`,
  },
  {
    what: 'the rect figure (drawn by drawRect, hit by checkCoordinateOnRect)',
    find: `var rect = {
    name: 'rect',
    checkEventOn: checkCoordinateOnRect,
    draw: function (ctx, attrs, styles) {
        drawRect(ctx, attrs, styles);
    }
};`,
    replace: `var rect = {
    name: 'rect',
    checkEventOn: checkCoordinateOnRect,
    draw: function (ctx, attrs, styles) {
        drawRect(ctx, attrs, styles);
    }
};`,
  },
  {
    what: 'timestampToDataIndex (its binary search)',
    find: `                }
            }
        }
        return binarySearchNearest(this._dataList, 'timestamp', timestamp);
    };
    StoreImp.prototype.dataIndexToCoordinate = function (dataIndex) {`,
    replace: `                }
            }
        }
        return this._keptDataIndex(timestamp);
    };
    /* Tradeport (web/build/klinecharts-lean-frames.ts): binarySearchNearest over the candles, kept while their times are the same. */
    StoreImp.prototype._keptDataIndex = function (timestamp) {
        var list = this._dataList;
        var kept = this._keptDataIndexes;
        if (kept === undefined || kept.list !== list || kept.length !== list.length || kept.last !== list[list.length - 1].timestamp || kept.indexes.size >= 4096) {
            kept = this._keptDataIndexes = { list: list, length: list.length, last: list[list.length - 1].timestamp, indexes: new Map() };
        }
        var index = kept.indexes.get(timestamp);
        if (index === undefined) {
            index = binarySearchNearest(list, 'timestamp', timestamp);
            kept.indexes.set(timestamp, index);
        }
        return index;
    };
    StoreImp.prototype.dataIndexToCoordinate = function (dataIndex) {`,
  },
  {
    what: 'formatThousands',
    find: `function formatThousands(value, sign) {
    var vl = "".concat(value);
    if (sign.length === 0) {
        return vl;
    }`,
    replace: `function formatThousands(value, sign) {
    var vl = "".concat(value);
    if (sign.length === 0) {
        return vl;
    }
    /* Tradeport: fewer than four integer digits (and one point at most): nothing for the expressions below to group. */
    var point = vl.indexOf('.');
    if ((point < 0 ? vl.length : point) < 4 && (point < 0 || vl.indexOf('.', point + 1) < 0)) {
        return vl;
    }`,
  },
  {
    what: 'formatFoldDecimal',
    find: `function formatFoldDecimal(value, threshold) {
    var vl = "".concat(value);
    var reg = new RegExp('\\\\.0{' + threshold + ',}[1-9][0-9]*$');`,
    replace: `/* Tradeport: the folding expression made once per threshold (it has no state: no g or y flag). */
var foldExpressions = new Map();
function formatFoldDecimal(value, threshold) {
    var vl = "".concat(value);
    var reg = foldExpressions.get(threshold);
    if (reg === undefined) {
        reg = new RegExp('\\\\.0{' + threshold + ',}[1-9][0-9]*$');
        foldExpressions.set(threshold, reg);
    }`,
  },
  {
    what: "OverlayView.drawFigures (each drawing's figures)",
    find: `            attrsArray.forEach(function (ats) {
                var _a, _b;
                var events = _this._createFigureEvents(overlay, 'other', figureIndex, figure);
                // @ts-ignore
                var ss = __assign(__assign(__assign({}, defaultStyles[type]), (_a = overlay.styles) === null || _a === void 0 ? void 0 : _a[type]), styles);
                (_b = _this.createFigure({
                    name: type,
                    attrs: ats,
                    styles: ss
                }, events !== null && events !== void 0 ? events : undefined)) === null || _b === void 0 ? void 0 : _b.draw(ctx);
            });`,
    replace: `            attrsArray.forEach(function (ats) {
                var _a;
                // @ts-ignore
                var ss = __assign(__assign(__assign({}, defaultStyles[type]), (_a = overlay.styles) === null || _a === void 0 ? void 0 : _a[type]), styles);
                /* Tradeport (web/build/klinecharts-lean-frames.ts): drawn by its figure's own drawing; its events made when one reaches it. */
                var FigureClazz = getInnerFigureClass(type);
                if (FigureClazz === null) {
                    return;
                }
                if (!overlay.isDrawing()) {
                    _this.addChild(new OverlayFigureTarget(_this, FigureClazz, overlay, figureIndex, figure, ats, ss));
                }
                FigureClazz.prototype.drawImp(ctx, ats, ss);
            });`,
  },
  {
    what: "OverlayView's figure events (made when one reaches a figure)",
    find: `    OverlayView.prototype._createFigureEvents = function (overlay, figureType, figureIndex, figure) {
        if (overlay.isDrawing()) {
            return null;
        }
        return {
            mouseMoveEvent: this._figureMouseMoveEvent(overlay, figureType, figureIndex, figure),
            mouseDownEvent: this._figureMouseDownEvent(overlay, figureType, figureIndex, figure),
            mouseClickEvent: this._figureMouseClickEvent(overlay, figureType, figureIndex, figure),
            mouseRightClickEvent: this._figureMouseRightClickEvent(overlay, figureType, figureIndex, figure),
            mouseDoubleClickEvent: this._figureMouseDoubleClickEvent(overlay, figureType, figureIndex, figure)
        };
    };`,
    replace: `    OverlayView.prototype._createFigureEvents = function (overlay, figureType, figureIndex, figure) {
        if (overlay.isDrawing()) {
            return null;
        }
        return {
            mouseMoveEvent: this._figureMouseMoveEvent(overlay, figureType, figureIndex, figure),
            mouseDownEvent: this._figureMouseDownEvent(overlay, figureType, figureIndex, figure),
            mouseClickEvent: this._figureMouseClickEvent(overlay, figureType, figureIndex, figure),
            mouseRightClickEvent: this._figureMouseRightClickEvent(overlay, figureType, figureIndex, figure),
            mouseDoubleClickEvent: this._figureMouseDoubleClickEvent(overlay, figureType, figureIndex, figure)
        };
    };`,
  },
  {
    what: "the figure class (drawImp and checkEventOnImp of a registered figure use only their arguments)",
    find: `            Custom.prototype.checkEventOnImp = function (coordinate, attrs, styles) {
                return figure.checkEventOn(coordinate, attrs, styles);
            };
            Custom.prototype.drawImp = function (ctx, attrs, styles) {
                figure.draw(ctx, attrs, styles);
            };`,
    replace: `            Custom.prototype.checkEventOnImp = function (coordinate, attrs, styles) {
                return figure.checkEventOn(coordinate, attrs, styles);
            };
            Custom.prototype.drawImp = function (ctx, attrs, styles) {
                figure.draw(ctx, attrs, styles);
            };`,
  },
  {
    what: 'OverlayView._drawOverlay (an overlay the view draws nothing of is passed over)',
    find: `    OverlayView.prototype._drawOverlay = function (ctx, overlay) {
        var points = overlay.points;`,
    replace: `    /* Tradeport (web/build/klinecharts-lean-frames.ts): whether this view draws nothing of the overlay (the axes' views: no figures of their own for it and no labels while it is not selected). */
    OverlayView.prototype._drawsNothingOf = function (_overlay) {
        return false;
    };
    OverlayView.prototype._drawOverlay = function (ctx, overlay) {
        if (this._drawsNothingOf(overlay)) {
            return;
        }
        var points = overlay.points;`,
  },
  {
    what: "the price axis's overlay view (its labels: createYAxisFigures, and the selected overlay's)",
    find: `    OverlayYAxisView.prototype.coordinateToPointTimestampDataIndexFlag = function () {
        return false;
    };
    OverlayYAxisView.prototype.drawDefaultFigures = function (ctx, overlay, coordinates) {
        this.drawFigures(ctx, overlay, this.getDefaultFigures(overlay, coordinates));
    };`,
    replace: `    OverlayYAxisView.prototype.coordinateToPointTimestampDataIndexFlag = function () {
        return false;
    };
    OverlayYAxisView.prototype._drawsNothingOf = function (overlay) {
        var _a;
        var pane = this.getWidget().getPane();
        var clickOverlayInfo = pane.getChart().getChartStore().getClickOverlayInfo();
        return !isValid(overlay.createYAxisFigures) && !(overlay.needDefaultYAxisFigure && overlay.id === ((_a = clickOverlayInfo.overlay) === null || _a === void 0 ? void 0 : _a.id) && clickOverlayInfo.paneId === pane.getId());
    };
    OverlayYAxisView.prototype.drawDefaultFigures = function (ctx, overlay, coordinates) {
        this.drawFigures(ctx, overlay, this.getDefaultFigures(overlay, coordinates));
    };`,
  },
  {
    what: "the price axis's overlay labels (drawn only for the overlay selected on the pane)",
    find: `        if (overlay.needDefaultYAxisFigure && overlay.id === ((_a = clickOverlayInfo.overlay) === null || _a === void 0 ? void 0 : _a.id) && clickOverlayInfo.paneId === pane.getId()) {`,
    replace: `        if (overlay.needDefaultYAxisFigure && overlay.id === ((_a = clickOverlayInfo.overlay) === null || _a === void 0 ? void 0 : _a.id) && clickOverlayInfo.paneId === pane.getId()) {`,
  },
  {
    what: "the price axis's overlay figures (createYAxisFigures only)",
    find: `        return (_b = (_a = overlay.createYAxisFigures) === null || _a === void 0 ? void 0 : _a.call(overlay, { chart: chart, overlay: overlay, coordinates: coordinates, bounding: bounding, xAxis: xAxis, yAxis: yAxis })) !== null && _b !== void 0 ? _b : [];
    };
    return OverlayYAxisView;
}(OverlayView));`,
    replace: `        return (_b = (_a = overlay.createYAxisFigures) === null || _a === void 0 ? void 0 : _a.call(overlay, { chart: chart, overlay: overlay, coordinates: coordinates, bounding: bounding, xAxis: xAxis, yAxis: yAxis })) !== null && _b !== void 0 ? _b : [];
    };
    return OverlayYAxisView;
}(OverlayView));`,
  },
  {
    what: "the time axis's overlay view (its labels: createXAxisFigures, and the selected overlay's)",
    find: `    OverlayXAxisView.prototype.coordinateToPointValueFlag = function () {
        return false;
    };`,
    replace: `    OverlayXAxisView.prototype.coordinateToPointValueFlag = function () {
        return false;
    };
    OverlayXAxisView.prototype._drawsNothingOf = function (overlay) {
        var _a;
        var clickOverlayInfo = this.getWidget().getPane().getChart().getChartStore().getClickOverlayInfo();
        return !isValid(overlay.createXAxisFigures) && !(overlay.needDefaultXAxisFigure && overlay.id === ((_a = clickOverlayInfo.overlay) === null || _a === void 0 ? void 0 : _a.id));
    };`,
  },
  {
    what: "the time axis's overlay labels (drawn only for the overlay selected)",
    find: `        if (overlay.needDefaultXAxisFigure && overlay.id === ((_a = clickOverlayInfo.overlay) === null || _a === void 0 ? void 0 : _a.id)) {`,
    replace: `        if (overlay.needDefaultXAxisFigure && overlay.id === ((_a = clickOverlayInfo.overlay) === null || _a === void 0 ? void 0 : _a.id)) {`,
  },
  {
    what: "the time axis's overlay figures (createXAxisFigures only)",
    find: `        return (_b = (_a = o.createXAxisFigures) === null || _a === void 0 ? void 0 : _a.call(o, { chart: chart, overlay: o, coordinates: coordinates, bounding: bounding, xAxis: xAxis, yAxis: yAxis })) !== null && _b !== void 0 ? _b : [];
    };
    return OverlayXAxisView;
}(OverlayYAxisView));`,
    replace: `        return (_b = (_a = o.createXAxisFigures) === null || _a === void 0 ? void 0 : _a.call(o, { chart: chart, overlay: o, coordinates: coordinates, bounding: bounding, xAxis: xAxis, yAxis: yAxis })) !== null && _b !== void 0 ? _b : [];
    };
    return OverlayXAxisView;
}(OverlayYAxisView));`,
  },
];

/**
 * Applies the patches to KLineChart's ES build (10.x). The last only checks that the rect figure is
 * still `drawRect` and `checkCoordinateOnRect`, which the candles now call directly. The build
 * fails if any is not found exactly once (an upgrade changed the code).
 */
export function leanFrames(code: string): string {
  let out = code;
  for (const p of PATCHES) {
    const at = out.indexOf(p.find);
    if (at < 0 || out.indexOf(p.find, at + 1) >= 0) throw new Error(`KLineChart's ${p.what} is not where the build expects it: check web/build/klinecharts-lean-frames.ts against this KLineChart version.`);
    out = out.slice(0, at) + p.replace + out.slice(at + p.find.length);
  }
  return out;
}

/** The Vite plugin applying `leanFrames`, then `keepUnchangedLayers`, to KLineChart's ES build. */
export function klinechartsLeanFrames(): Plugin {
  return {
    name: 'tradeport:klinecharts-lean-frames',
    transform(code, id) {
      if (!/[\\/]klinecharts[\\/]dist[\\/]index\.esm\.js$/.test(id.split('?')[0]!)) return null;
      return { code: keepUnchangedLayers(leanFrames(code)), map: null };
    },
  };
}
