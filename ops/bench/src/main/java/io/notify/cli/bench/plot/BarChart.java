package io.notify.cli.bench.plot;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.CategoryAxis;
import org.jfree.chart.axis.ValueAxis;
import org.jfree.chart.labels.StandardCategoryItemLabelGenerator;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.renderer.category.BarRenderer;
import org.jfree.data.category.DefaultCategoryDataset;

/**
 * A grouped bar chart: one group per category, one bar per series in each group, the value on each
 * bar; linear (from zero) or log y axis. Non-finite values, and on a log axis values ≤ 0, leave a gap.
 */
public final class BarChart extends Chart {

    private final List<String> categories;
    private final Map<String, double[]> series = new LinkedHashMap<>();

    public BarChart(String title, String xLabel, String yLabel, List<String> categories) {
        super(title, xLabel, yLabel);
        this.categories = List.copyOf(categories);
    }

    /** Adds a series (its name in the legend, unique in the chart) with one value per category. */
    public BarChart add(String name, double... values) {
        if (values.length != categories.size()) {
            throw new IllegalArgumentException("series " + name + ": " + values.length + " values for "
                    + categories.size() + " categories");
        }
        series.put(name, values.clone());
        return this;
    }

    /** A log10 y axis (for values spanning orders of magnitude). */
    public BarChart logY() {
        this.logY = true;
        return this;
    }

    @Override
    JFreeChart build(ValueAxis y) {
        DefaultCategoryDataset data = new DefaultCategoryDataset();
        series.forEach((name, values) -> {
            for (int c = 0; c < values.length; c++) {
                boolean drawn = Double.isFinite(values[c]) && (!logY || values[c] > 0);
                data.addValue(drawn ? values[c] : null, name, categories.get(c));
            }
        });
        BarRenderer bars = new BarRenderer();
        bars.setIncludeBaseInRange(!logY); // on a log axis bars rise from the axis floor, not from 0
        bars.setDefaultItemLabelGenerator(new StandardCategoryItemLabelGenerator("{2}", numbers()));
        bars.setDefaultItemLabelsVisible(true);
        return new JFreeChart(title, new CategoryPlot(data, new CategoryAxis(xLabel), y, bars));
    }
}
