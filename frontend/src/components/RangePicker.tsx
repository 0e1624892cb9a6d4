// The range of the statistics a page shows, kept in the URL's query so that it can be shared.
import { Group, SegmentedControl, Text, TextInput } from "@mantine/core";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useLiveSearchParams } from "../lib/searchParams";
import { isDate, rangeDays, rangeFromSearch, rangePresets, rangeToSearch, type RangePreset, type StatsRange } from "../lib/statsView";

/** The range in the URL (fallback when it names none), and a setter that writes it there. */
export function useStatsRange(fallback: RangePreset): [StatsRange, (r: StatsRange) => void] {
  const [params, setParams] = useLiveSearchParams();
  const range = rangeFromSearch(params, fallback);
  return [range, (r) => setParams((p) => rangeToSearch(r, p), true)];
}

/** The days of a range as the language writes them: one date, or the first and the last. */
export function rangeLabel(days: { from: string; to: string }, locale?: string): string {
  const date = (s: string) => {
    const [y = 0, m = 1, d = 1] = s.split("-").map(Number);
    return new Date(y, m - 1, d);
  };
  return new Intl.DateTimeFormat(locale, { dateStyle: "medium" }).formatRange(date(days.from), date(days.to));
}

export function RangePicker({ value, onChange }: { value: StatsRange; onChange: (r: StatsRange) => void }) {
  const { t, i18n } = useTranslation();
  // The custom dates being typed: applied once both are dates in order.
  const shown = rangeDays(value);
  const [from, setFrom] = useState(shown.from);
  const [to, setTo] = useState(shown.to);
  const bad = value.preset === "custom" && isDate(from) && isDate(to) && from > to;
  const pick = (preset: RangePreset) => {
    if (preset !== "custom") return onChange({ preset });
    const d = rangeDays(value);
    setFrom(d.from);
    setTo(d.to);
    onChange({ preset, from: d.from, to: d.to });
  };
  const apply = (f: string, tt: string) => {
    if (isDate(f) && isDate(tt) && f <= tt) onChange({ preset: "custom", from: f, to: tt });
  };
  return (
    <Group gap="xs" align="flex-end" data-testid="range-picker">
      <SegmentedControl
        size="xs"
        value={value.preset}
        onChange={(v) => pick(v as RangePreset)}
        data={rangePresets.map((p) => ({ value: p, label: t(`stats.range.${p}`) }))}
        aria-label={t("stats.range.label")}
      />
      {value.preset !== "custom" && (
        <Text size="sm" c="dimmed" data-testid="range-shown">
          {rangeLabel(shown, i18n.resolvedLanguage)}
        </Text>
      )}
      {value.preset === "custom" && (
        <Group gap="xs" align="flex-end">
          <TextInput
            type="date"
            size="xs"
            label={t("stats.range.from")}
            value={from}
            max={to || undefined}
            onChange={(e) => {
              setFrom(e.currentTarget.value);
              apply(e.currentTarget.value, to);
            }}
          />
          <TextInput
            type="date"
            size="xs"
            label={t("stats.range.to")}
            value={to}
            min={from || undefined}
            error={bad ? t("stats.range.order") : undefined}
            onChange={(e) => {
              setTo(e.currentTarget.value);
              apply(from, e.currentTarget.value);
            }}
          />
        </Group>
      )}
    </Group>
  );
}
