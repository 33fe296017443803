/**
 * KLineChart redraws every canvas of the chart on every tick: each pane's main canvas and its
 * overlay canvas (the drawings, the crosshair and the legends), both canvases of each price axis,
 * and the time axis's two. A tick on the forming candle changes the candles, the indicators' last
 * values, the legends and the price axes' labels; it does not move the drawings, the time axis, the
 * closed candles or the axes' crosshair and drawing labels unless the visible range, the bar
 * spacing, the price range or the candles' extent changes with it. This build step (applied after
 * `klinecharts-lean-frames.ts`, by the same Vite plugin) stops drawing again what a tick did not
 * change, and draws the candles with fewer paths:
 * - each pane's drawings get a canvas of their own, between the pane's main canvas and its overlay
 *   canvas (which keeps the crosshair and the legends, drawn over the drawings as before);
 * - that canvas, the time axis's two canvases and each price axis's overlay canvas keep their
 *   pixels through a frame when nothing they are drawn from changed since they were last drawn:
 *   the chart's revision (bumped by every layout and update KLineChart is asked for except a
 *   tick's: styles, locale, symbol, period, a new set of candles, overlays created, changed,
 *   removed, hovered, pressed or dragged, the crosshair moving), the canvas's size, the visible
 *   range, the bar spacing and scroll offset, the candles' count and first and last times, the
 *   period, the pane's price ranges and the crosshair; and the forming candle itself when a drawing
 *   on the pane said its figures read it (a channel fitted up to the forming candle:
 *   Symbol.for('tradeport.chart.readsFormingCandle') set on the overlay, see
 *   src/chart/kept-figures.ts);
 * - the closed candles (all but the last of the list) are kept as a picture under the same
 *   conditions (and the candle pane's price range), made once the key has held for a frame, and
 *   only the forming candle is drawn over it; while the price range moves with every tick (the
 *   forming candle or a band's last value at the edge of the range) the candles are drawn as before;
 * - the candles' rectangles are filled and stroked a colour at a time, one path per colour and part
 *   (wick, body, border) in the order KLineChart draws a candle's parts, instead of one path each;
 * - a pane's and a widget's size are read back from the page only when their bounding changed
 *   (KLineChart read them on every tick, forcing a layout of whatever the page had changed).
 *
 * What it gives up: pixel identity with KLineChart's own drawing. Chromium rasterizes a path of many
 * rectangles with another antialiasing than a path of one, so the pixel where a wick meets its body
 * differs by up to about 45 levels; and a canvas that draws fewer paths than before may antialias
 * dashed lines and text a few levels apart. The browser test (e2e/chart-lean-frames.e2e.ts) compares
 * the chart as the page shows it (every canvas composed) with KLineChart's own through ticks, new
 * candles, scrolling, zooming, restyling, the crosshair and a drawing hovered and selected: every
 * differing pixel must be on an antialiased edge and within 48 levels, and few; a chart whose kept
 * layers go stale fails it.
 *
 * The build fails if an upgrade changes the code patched here.
 */

interface Patch {
  what: string;
  find: string;
  replace: string;
}

const PATCHES: Patch[] = [
  {
    what: "the canvas's frame (its pixels kept when nothing it is drawn from changed)",
    find: `                if (_this._resizePending) {
                    _this._resizePending = false;
                    _this._pixelWidth = _this._nextPixelWidth;
                    _this._pixelHeight = _this._nextPixelHeight;
                    _this._element.width = _this._pixelWidth;
                    _this._element.height = _this._pixelHeight;
                }
                _this._ctx.setTransform(1, 0, 0, 1, 0, 0);`,
    replace: `                var resized = _this._resizePending;
                if (_this._resizePending) {
                    _this._resizePending = false;
                    _this._pixelWidth = _this._nextPixelWidth;
                    _this._pixelHeight = _this._nextPixelHeight;
                    _this._element.width = _this._pixelWidth;
                    _this._element.height = _this._pixelHeight;
                }
                /* Tradeport (web/build/klinecharts-unchanged-layers.ts): a layer whose inputs are those it was last drawn from keeps its pixels. */
                if (_this._tpUnchanged !== undefined && _this._tpUnchanged(resized)) {
                    return;
                }
                _this._ctx.setTransform(1, 0, 0, 1, 0, 0);`,
  },
  {
    what: "DrawWidget.updateImp (the drawings' canvas updated with the overlay's)",
    find: `            case 3 /* UpdateLevel.Drawer */:
            case 4 /* UpdateLevel.All */: {
                this._mainCanvas.update(width, height);
                this._overlayCanvas.update(width, height);
                break;
            }
        }
    };`,
    replace: `            case 3 /* UpdateLevel.Drawer */:
            case 4 /* UpdateLevel.All */: {
                this._mainCanvas.update(width, height);
                this._overlayCanvas.update(width, height);
                break;
            }
        }
        if (this._drawingsCanvas !== undefined && (l === 1 || l === 3 || l === 4)) {
            this._drawingsCanvas.update(width, height);
        }
    };`,
  },
  {
    what: 'DrawWidget.destroy',
    find: `    DrawWidget.prototype.destroy = function () {
        this._mainCanvas.destroy();
        this._overlayCanvas.destroy();`,
    replace: `    DrawWidget.prototype.destroy = function () {
        this._mainCanvas.destroy();
        if (this._drawingsCanvas !== undefined) {
            this._drawingsCanvas.destroy();
        }
        this._overlayCanvas.destroy();`,
  },
  {
    what: 'DrawWidget.getImage (the drawings under the overlay canvas)',
    find: `        ctx.drawImage(this._mainCanvas.getElement(), 0, 0, width, height);
        if (includeOverlay) {
            ctx.drawImage(this._overlayCanvas.getElement(), 0, 0, width, height);
        }`,
    replace: `        ctx.drawImage(this._mainCanvas.getElement(), 0, 0, width, height);
        if (includeOverlay) {
            if (this._drawingsCanvas !== undefined) {
                ctx.drawImage(this._drawingsCanvas.getElement(), 0, 0, width, height);
            }
            ctx.drawImage(this._overlayCanvas.getElement(), 0, 0, width, height);
        }`,
  },
  {
    what: "IndicatorWidget's construction (the drawings' own canvas)",
    find: `        _this._overlayView = new OverlayView(_this);
        _this.addChild(_this._tooltipView);
        _this.addChild(_this._overlayView);
        return _this;
    }`,
    replace: `        _this._overlayView = new OverlayView(_this);
        _this.addChild(_this._tooltipView);
        _this.addChild(_this._overlayView);
        /* Tradeport: the drawings on a canvas of their own, under the crosshair and legends, kept while unchanged. */
        _this._drawingsCanvas = new Canvas({
            position: 'absolute',
            top: '0',
            left: '0',
            zIndex: '2',
            boxSizing: 'border-box'
        }, function () {
            _this._overlayView.draw(_this._drawingsCanvas.getContext());
        });
        _this._drawingsCanvas._tpUnchanged = function (resized) { return tpLayerUnchanged(_this, 'drawings', resized); };
        _this.getContainer().insertBefore(_this._drawingsCanvas.getElement(), _this._overlayCanvas.getElement());
        return _this;
    }`,
  },
  {
    what: 'IndicatorWidget.updateOverlay (the drawings no longer on the overlay canvas)',
    find: `    IndicatorWidget.prototype.updateOverlay = function (ctx) {
        this._overlayView.draw(ctx);
        this._crosshairLineView.draw(ctx);`,
    replace: `    IndicatorWidget.prototype.updateOverlay = function (ctx) {
        this._crosshairLineView.draw(ctx);`,
  },
  {
    what: "the price axis's construction (its overlay canvas kept while unchanged)",
    find: `        _this._yAxis = yAxis;
        _this.setCursor('ns-resize');
        _this.addChild(_this._overlayYAxisView);
        return _this;`,
    replace: `        _this._yAxis = yAxis;
        _this.setCursor('ns-resize');
        _this.addChild(_this._overlayYAxisView);
        _this._overlayCanvas._tpUnchanged = function (resized) { return tpLayerUnchanged(_this, 'axisOverlay', resized); };
        return _this;`,
  },
  {
    what: "the time axis's construction (both canvases kept while unchanged)",
    find: `        _this._crosshairVerticalLabelView = new CrosshairVerticalLabelView(_this);
        _this.setCursor('ew-resize');
        _this.addChild(_this._overlayXAxisView);
        return _this;`,
    replace: `        _this._crosshairVerticalLabelView = new CrosshairVerticalLabelView(_this);
        _this.setCursor('ew-resize');
        _this.addChild(_this._overlayXAxisView);
        _this._mainCanvas._tpUnchanged = function (resized) { return tpLayerUnchanged(_this, 'timeAxis', resized); };
        _this._overlayCanvas._tpUnchanged = function (resized) { return tpLayerUnchanged(_this, 'axisOverlay', resized); };
        return _this;`,
  },
  {
    what: 'ChartImp.layout (every layout but a tick bumps the revision)',
    find: `    ChartImp.prototype.layout = function (options) {
        var _this = this;
        var _a, _b, _c, _d, _e, _f, _g, _h;`,
    replace: `    ChartImp.prototype.layout = function (options) {
        var _this = this;
        var _a, _b, _c, _d, _e, _f, _g, _h;
        if (this._tpQuietLayout !== true) {
            this._tpRevision = (this._tpRevision | 0) + 1;
        }`,
  },
  {
    what: "ChartImp._layout's update (all panes, not a revision of its own)",
    find: `        if (update) {
            this._xAxisPane.getXAxisComponent().buildTicks(true);
            this.updatePane(4 /* UpdateLevel.All */);
        }`,
    replace: `        if (update) {
            this._xAxisPane.getXAxisComponent().buildTicks(true);
            this._tpInLayout = true;
            try {
                this.updatePane(4 /* UpdateLevel.All */);
            }
            finally {
                this._tpInLayout = false;
            }
        }`,
  },
  {
    what: 'ChartImp.updatePane (an update asked for outside a layout bumps the revision)',
    find: `    ChartImp.prototype.updatePane = function (level, paneId) {
        var _this = this;`,
    replace: `    ChartImp.prototype.updatePane = function (level, paneId) {
        var _this = this;
        if (level !== 0 /* UpdateLevel.Main */ && this._tpInLayout !== true) {
            this._tpRevision = (this._tpRevision | 0) + 1;
        }`,
  },
  {
    what: "StoreImp._addData's layout (a tick's is quiet; a new set of candles bumps the revision)",
    find: `        if (success && adjustFlag) {
            this._adjustVisibleRange();
            this.setCrosshair(this._crosshair, { notInvalidate: true });
            var filterIndicators = this.getIndicatorsByFilter({});
            if (filterIndicators.length > 0) {
                this._calcIndicator(filterIndicators);
            }
            else {
                this._chart.layout({
                    measureWidth: true,
                    update: true,
                    buildYAxisTick: true,
                    cacheYAxisWidth: type !== 'init'
                });
            }
        }`,
    replace: `        if (success && adjustFlag) {
            if (isArray(data)) {
                this._chart._tpRevision = (this._chart._tpRevision | 0) + 1;
            }
            this._adjustVisibleRange();
            this.setCrosshair(this._crosshair, { notInvalidate: true });
            var filterIndicators = this.getIndicatorsByFilter({});
            if (filterIndicators.length > 0) {
                this._calcIndicator(filterIndicators);
            }
            else {
                this._chart._tpQuietLayout = true;
                try {
                    this._chart.layout({
                        measureWidth: true,
                        update: true,
                        buildYAxisTick: true,
                        cacheYAxisWidth: type !== 'init'
                    });
                }
                finally {
                    this._chart._tpQuietLayout = false;
                }
            }
        }`,
  },
  {
    what: "the indicators' task scheduler (its layout after a calculation is quiet)",
    find: `        this._taskScheduler = new TaskScheduler(function () {
            _this._chart.layout({
                measureWidth: true,
                update: true,
                buildYAxisTick: true
            });
        });`,
    replace: `        this._taskScheduler = new TaskScheduler(function () {
            /* Tradeport: what an indicator's values change is in the layers' keys (price ranges) or on canvases always drawn. */
            _this._chart._tpQuietLayout = true;
            try {
                _this._chart.layout({
                    measureWidth: true,
                    update: true,
                    buildYAxisTick: true
                });
            }
            finally {
                _this._chart._tpQuietLayout = false;
            }
        });`,
  },
  {
    what: "the candle bars' start (after build/klinecharts-lean-frames.ts: the closed candles' picture)",
    find: `            var directRects_1 = getInnerFigureClass('rect') === builtInRectFigure;
            var targets_1 = null;
            if (directRects_1 && isMain) {
                targets_1 = new CandleBarTargets(this);
                this.addChild(targets_1);
            }
            this.eachChildren(function (visibleData, barSpace) {
                var _a;
                var x = visibleData.x, _b = visibleData.data, current = _b.current, prev = _b.prev;
                if (isValid(current)) {`,
    replace: `            var directRects_1 = getInnerFigureClass('rect') === builtInRectFigure;
            var targets_1 = null;
            if (directRects_1 && isMain) {
                targets_1 = new CandleBarTargets(this);
                this.addChild(targets_1);
            }
            /* Tradeport (web/build/klinecharts-unchanged-layers.ts): the closed candles kept as a picture while nothing they are drawn from changes, the forming one drawn after it. */
            var closed_1 = directRects_1 ? tpClosedCandles(this, ctx, chartStore, yAxis_1, type_1) : null;
            /* The candles' rectangles filled and stroked a colour at a time (one path each), in KLineChart's order within a candle. */
            var batch_1 = directRects_1 && tpStringColors(styles_1) ? new TpRectBatch() : null;
            var drawCtx_1 = ctx;
            /* 0: every candle, as KLineChart draws them; 1: the closed ones, into the picture; 2: the forming one. */
            var pass_1 = 0;
            var eachCandle_1 = function (visibleData, barSpace) {
                var _a;
                var x = visibleData.x, _b = visibleData.data, current = _b.current, prev = _b.prev;
                if (pass_1 !== 0 && (visibleData.dataIndex === closed_1.forming) !== (pass_1 === 2)) {
                    return;
                }
                if (isValid(current)) {`,
  },
  {
    what: "the candle bars' rectangles (after build/klinecharts-lean-frames.ts)",
    find: `                    rects.forEach(function (rect) {
                        var _a;
                        if (directRects_1) {
                            if (targets_1 !== null) {
                                targets_1.add(rect.attrs, visibleData);
                            }
                            drawRect(ctx, rect.attrs, rect.styles);
                            return;
                        }`,
    replace: `                    rects.forEach(function (rect, slot) {
                        var _a;
                        if (directRects_1) {
                            if (pass_1 === 1) {
                                closed_1.attrs.push(rect.attrs);
                                closed_1.data.push(visibleData);
                            }
                            else if (targets_1 !== null) {
                                targets_1.add(rect.attrs, visibleData);
                            }
                            if (batch_1 !== null) {
                                batch_1.add(slot, rect.attrs, rect.styles);
                            }
                            else {
                                drawRect(drawCtx_1, rect.attrs, rect.styles);
                            }
                            return;
                        }`,
  },
  {
    what: "the candle bars' end (the picture drawn, then the forming candle)",
    find: `                        (_a = _this.createFigure(rect, handler !== null && handler !== void 0 ? handler : undefined)) === null || _a === void 0 ? void 0 : _a.draw(ctx);
                    });
                }
            });
        }
    };
    CandleBarView.prototype.getCandleBarOptions = function () {`,
    replace: `                        (_a = _this.createFigure(rect, handler !== null && handler !== void 0 ? handler : undefined)) === null || _a === void 0 ? void 0 : _a.draw(ctx);
                    });
                }
            };
            var flush_1 = function () {
                if (batch_1 !== null) {
                    batch_1.flush(drawCtx_1);
                }
            };
            if (closed_1 === null) {
                this.eachChildren(eachCandle_1);
                flush_1();
            }
            else {
                if (closed_1.build) {
                    pass_1 = 1;
                    drawCtx_1 = closed_1.ctx;
                    this.eachChildren(eachCandle_1);
                    flush_1();
                    closed_1.ctx.restore();
                    closed_1.build = false;
                }
                ctx.save();
                ctx.setTransform(1, 0, 0, 1, 0, 0);
                ctx.drawImage(closed_1.canvas, 0, 0);
                ctx.restore();
                if (targets_1 !== null) {
                    targets_1._attrs = closed_1.attrs.slice();
                    targets_1._data = closed_1.data.slice();
                }
                pass_1 = 2;
                drawCtx_1 = ctx;
                this.eachChildren(eachCandle_1);
                flush_1();
            }
        }
    };
    CandleBarView.prototype.getCandleBarOptions = function () {`,
  },
  {
    what: 'DrawWidget.updateImp (its size read from the page only when its bounding changed)',
    find: `        var l = level;
        var w = container.clientWidth;
        var h = container.clientHeight;
        if (width !== w || height !== h) {
            container.style.width = "".concat(width, "px");
            container.style.height = "".concat(height, "px");
            l = 3 /* UpdateLevel.Drawer */;
        }`,
    replace: `        var l = level;
        /* Tradeport: the container's size is the one set here last while the bounding is the same; reading it back forced a layout of the page on every tick. */
        if (this._tpWidth !== width || this._tpHeight !== height) {
            var w = container.clientWidth;
            var h = container.clientHeight;
            if (width !== w || height !== h) {
                container.style.width = "".concat(width, "px");
                container.style.height = "".concat(height, "px");
                l = 3 /* UpdateLevel.Drawer */;
            }
            this._tpWidth = width;
            this._tpHeight = height;
        }`,
  },
  {
    what: 'Pane.update (its height read from the page only when its bounding changed)',
    find: `    Pane.prototype.update = function (level) {
        if (this._bounding.height !== this._container.clientHeight) {
            this._container.style.height = "".concat(this._bounding.height, "px");
        }`,
    replace: `    Pane.prototype.update = function (level) {
        if (this._tpHeight !== this._bounding.height) {
            if (this._bounding.height !== this._container.clientHeight) {
                this._container.style.height = "".concat(this._bounding.height, "px");
            }
            this._tpHeight = this._bounding.height;
        }`,
  },
  {
    what: 'the layer keys (added before the Canvas class)',
    find: `var Canvas = /** @class */ (function () {
    function Canvas(style, listener) {`,
    replace: `/* Tradeport (web/build/klinecharts-unchanged-layers.ts): what a kept layer is drawn from, and whether that is what it was last drawn from. */
var TP_READS_FORMING_CANDLE = Symbol.for('tradeport.chart.readsFormingCandle');
function tpLayerValues(widget, kind) {
    var pane = widget.getPane();
    var chart = pane.getChart();
    var store = chart.getChartStore();
    var list = store.getDataList();
    var count = list.length;
    var range = store.getVisibleRange();
    var period = store.getPeriod();
    var bounding = widget.getBounding();
    var values = [
        chart._tpRevision | 0, bounding.width, bounding.height,
        store._barSpace, store._gapBarSpace, store._totalBarSpace, store._lastBarRightSideDiffBarCount,
        range.from, range.to, range.realFrom, range.realTo,
        count, count > 0 ? list[0].timestamp : -1, count > 0 ? list[count - 1].timestamp : -1,
        isValid(period) ? period.type : '', isValid(period) ? period.span : -1
    ];
    if (kind === 'timeAxis') {
        return values;
    }
    pane.getYAxisComponents().forEach(function (axis) {
        var r = axis.getRange();
        values.push(r.from, r.to, r.range, r.realFrom, r.realTo, r.displayFrom, r.displayTo);
    });
    var crosshair = store.getCrosshair();
    values.push(crosshair.x, crosshair.y, crosshair.paneId, crosshair.realDataIndex, crosshair.timestamp);
    var overlays = kind === 'drawings' ? store.getOverlaysByPaneId(pane.getId()) : store.getOverlaysByPaneId();
    for (var i = 0; i < overlays.length; i++) {
        if (overlays[i][TP_READS_FORMING_CANDLE] === true && count > 0) {
            var last = list[count - 1];
            values.push(last.open, last.high, last.low, last.close, last.volume);
            break;
        }
    }
    return values;
}
/* Whether the candle bars' colours are all strings (a gradient is drawn by drawRect, one rectangle at a time). */
function tpStringColors(bar) {
    var keys = ['upColor', 'downColor', 'noChangeColor', 'upBorderColor', 'downBorderColor', 'noChangeBorderColor', 'upWickColor', 'downWickColor', 'noChangeWickColor'];
    for (var i = 0; i < keys.length; i++) {
        if (bar[keys[i]] !== undefined && typeof bar[keys[i]] !== 'string') {
            return false;
        }
    }
    return true;
}
/* drawRect's fills and strokes, gathered by the rectangle's place in its candle (wick, body), what is done (fill, stroke, the small border's fillRect) and its colour and line, and drawn a group at a time: one path per group instead of one per rectangle. */
function TpRectBatch() {
    this._groups = new Map();
}
TpRectBatch.prototype._group = function (key, slot, op, color, lineWidth, dashed, radius) {
    var group = this._groups.get(key);
    if (group === undefined) {
        group = { order: slot * 3 + op, op: op, color: color, lineWidth: lineWidth, dashed: dashed, radius: radius, rects: [] };
        this._groups.set(key, group);
    }
    return group.rects;
};
TpRectBatch.prototype.add = function (slot, attrs, styles) {
    var rects = [].concat(attrs);
    var style = styles.style === undefined ? 'fill' : styles.style;
    var color = styles.color === undefined ? 'transparent' : styles.color;
    var borderSize = styles.borderSize === undefined ? 1 : styles.borderSize;
    var borderColor = styles.borderColor === undefined ? 'transparent' : styles.borderColor;
    var borderStyle = styles.borderStyle === undefined ? 'solid' : styles.borderStyle;
    var r = styles.borderRadius === undefined ? 0 : styles.borderRadius;
    var dashed = borderStyle === 'dashed' ? (styles.borderDashedValue === undefined ? [2, 2] : styles.borderDashedValue) : null;
    var solid = (style === 'fill' || style === 'stroke_fill') && !isTransparent(color);
    var i, a;
    if (solid) {
        var fills = this._group(slot + '|f|' + color + '|' + r, slot, 0, color, 0, null, r);
        for (i = 0; i < rects.length; i++) {
            a = rects[i];
            fills.push(a.x, a.y, a.width, a.height);
        }
    }
    if ((style === 'stroke' || style === 'stroke_fill') && borderSize > 0 && !isTransparent(borderColor)) {
        var correction = borderSize % 2 === 1 ? 0.5 : 0;
        var doubleCorrection = Math.round(correction * 2);
        for (i = 0; i < rects.length; i++) {
            a = rects[i];
            if (a.width > borderSize * 2 && a.height > borderSize * 2) {
                this._group(slot + '|s|' + borderColor + '|' + borderSize + '|' + dashed + '|' + r, slot, 1, borderColor, borderSize, dashed, r).push(a.x + correction, a.y + correction, a.width - doubleCorrection, a.height - doubleCorrection);
            }
            else if (!solid) {
                this._group(slot + '|r|' + borderColor, slot, 2, borderColor, 0, null, 0).push(a.x, a.y, a.width, a.height);
            }
        }
    }
};
TpRectBatch.prototype.flush = function (ctx) {
    var groups = Array.from(this._groups.values());
    this._groups = new Map();
    groups.sort(function (a, b) { return a.order - b.order; });
    var draw = ctx.roundRect !== undefined && ctx.roundRect !== null ? ctx.roundRect : ctx.rect;
    groups.forEach(function (g) {
        var rects = g.rects;
        var i;
        if (g.op === 2) {
            ctx.fillStyle = g.color;
            for (i = 0; i < rects.length; i += 4) {
                ctx.fillRect(rects[i], rects[i + 1], rects[i + 2], rects[i + 3]);
            }
            return;
        }
        if (g.op === 1) {
            ctx.strokeStyle = g.color;
            ctx.fillStyle = g.color;
            ctx.lineWidth = g.lineWidth;
            ctx.setLineDash(g.dashed === null ? [] : g.dashed);
        }
        else {
            ctx.fillStyle = g.color;
        }
        ctx.beginPath();
        for (i = 0; i < rects.length; i += 4) {
            draw.call(ctx, rects[i], rects[i + 1], rects[i + 2], rects[i + 3], g.radius);
        }
        if (g.op === 1) {
            ctx.stroke();
        }
        else {
            ctx.fill();
        }
    });
};
function tpSameValues(before, values) {
    if (before.length !== values.length) {
        return false;
    }
    for (var i = 0; i < values.length; i++) {
        if (before[i] !== values[i] && !(before[i] !== before[i] && values[i] !== values[i])) {
            return false;
        }
    }
    return true;
}
/* The closed candles' picture of a candle view: kept while the candles' extent, the visible range, the spacing, the price range, the canvas and the chart's revision are those it was drawn with; made again (build) otherwise. Every candle but the last of the list (the forming one, which a tick replaces; forming is its index) is in it. */
function tpClosedCandles(view, ctx, store, yAxis, type) {
    var canvas = ctx.canvas;
    var list = store.getDataList();
    var count = list.length;
    if (typeof document === 'undefined' || !isValid(canvas) || count === 0 || typeof ctx.getTransform !== 'function') {
        return null;
    }
    var t = ctx.getTransform();
    if (t.b !== 0 || t.c !== 0 || t.e !== 0 || t.f !== 0) {
        return null;
    }
    var chart = view.getWidget().getPane().getChart();
    var range = store.getVisibleRange();
    var r = yAxis.getRange();
    var key = [
        chart._tpRevision | 0, canvas.width, canvas.height, t.a, t.d, type,
        store._barSpace, store._gapBarSpace, store._totalBarSpace, store._lastBarRightSideDiffBarCount,
        range.from, range.to, range.realFrom, range.realTo,
        count, list[0].timestamp, list[count - 1].timestamp,
        r.from, r.to, r.range, r.realFrom, r.realTo, r.displayFrom, r.displayTo
    ];
    var kept = view._tpClosed;
    if (kept !== undefined && tpSameValues(kept.key, key)) {
        return kept;
    }
    /* Made only once the key has held for a frame: while the price range moves on every tick (the forming candle or a band at the edge of the range), the candles are drawn directly, as KLineChart draws them, with no picture to make. */
    var previous = view._tpClosedKey;
    view._tpClosedKey = key;
    if (previous === undefined || !tpSameValues(previous, key)) {
        return null;
    }
    var picture = kept !== undefined ? kept.canvas : document.createElement('canvas');
    if (picture.width !== canvas.width || picture.height !== canvas.height) {
        picture.width = canvas.width;
        picture.height = canvas.height;
    }
    var pictureCtx = picture.getContext('2d');
    pictureCtx.setTransform(1, 0, 0, 1, 0, 0);
    pictureCtx.clearRect(0, 0, picture.width, picture.height);
    pictureCtx.save();
    pictureCtx.setTransform(t);
    kept = view._tpClosed = { key: key, canvas: picture, ctx: pictureCtx, attrs: [], data: [], build: true, forming: count - 1 };
    return kept;
}
function tpLayerUnchanged(widget, kind, resized) {
    var keys = widget._tpLayerKeys || (widget._tpLayerKeys = {});
    var values = tpLayerValues(widget, kind);
    var before = keys[kind];
    keys[kind] = values;
    return !resized && before !== undefined && tpSameValues(before, values);
}
var Canvas = /** @class */ (function () {
    function Canvas(style, listener) {`,
  },
];

/** Applies the patches to KLineChart's ES build (10.x, after `leanFrames`); the build fails if one is not found exactly once. */
export function keepUnchangedLayers(code: string): string {
  let out = code;
  for (const p of PATCHES) {
    const at = out.indexOf(p.find);
    if (at < 0 || out.indexOf(p.find, at + 1) >= 0) throw new Error(`KLineChart's ${p.what} is not where the build expects it: check web/build/klinecharts-unchanged-layers.ts against this KLineChart version.`);
    out = out.slice(0, at) + p.replace + out.slice(at + p.find.length);
  }
  return out;
}
