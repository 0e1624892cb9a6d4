// The statistics' filters of a page (lib/statsFilter): kept in the URL, shown as removable chips.
import { Button, Group, Pill, Text } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { filterEntries, filterFromSearch, withFilter, withoutFilter, type FilterName, type StatsFilter } from "../lib/statsFilter";
import { countryName } from "../lib/statsView";
import { useLiveSearchParams } from "../lib/searchParams";

/** The page's filters from its URL, a function adding one (or replacing its breakdown's), and one removing one or, without a name, all. */
export function useStatsFilter(): [StatsFilter, (name: FilterName, value: string) => void, (name?: FilterName) => void] {
  const [params, setParams] = useLiveSearchParams();
  return [
    filterFromSearch(params),
    (name, value) => setParams((p) => withFilter(p, name, value)),
    (name) => setParams((p) => withoutFilter(p, name)),
  ];
}

/** A filter's value as the breakdowns show it. */
export function useFilterLabel(): (name: FilterName, value: string) => string {
  const { t, i18n } = useTranslation();
  return (name, value) =>
    name === "device"
      ? t(`stats.devices.${value}`, { defaultValue: value })
      : name === "in_app"
        ? t(`stats.inApps.${value}`, { defaultValue: value })
        : name === "country"
          ? countryName(value, i18n.resolvedLanguage)
          : value;
}

/** The chips of the filters, each removable, and a button removing them all; nothing without filters. */
export function FilterChips({ filter, onRemove }: { filter: StatsFilter; onRemove: (name?: FilterName) => void }) {
  const { t } = useTranslation();
  const label = useFilterLabel();
  const entries = filterEntries(filter);
  if (entries.length === 0) return null;
  return (
    <Group gap="xs" data-testid="stats-filters" aria-label={t("stats.filter.label")}>
      <Text size="sm" c="dimmed">
        {t("stats.filter.label")}
      </Text>
      {entries.map(([name, value]) => (
        <Pill
          key={name}
          size="md"
          withRemoveButton
          onRemove={() => onRemove(name)}
          // Mantine hides a pill's remove button from the keyboard and screen readers (it is made
          // for inputs that take Backspace); a chip's is the only way to remove its filter.
          removeButtonProps={{
            "aria-label": t("stats.filter.remove", { name: t(`stats.filter.names.${name}`), value: label(name, value) }),
            "aria-hidden": false,
            tabIndex: 0,
          }}
          data-testid={`filter-chip-${name}`}
        >
          {t(`stats.filter.names.${name}`)}: {label(name, value)}
        </Pill>
      ))}
      {entries.length > 1 && (
        <Button size="compact-xs" variant="subtle" onClick={() => onRemove()} data-testid="filter-clear">
          {t("stats.filter.clear")}
        </Button>
      )}
    </Group>
  );
}
