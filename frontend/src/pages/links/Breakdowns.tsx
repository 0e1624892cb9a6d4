// A link's statistics by country, referrer, device, system, browser, variant and campaign: its
// page's and its public share's (SharePage). A value clicked filters the page by it.
import { Card, Progress, Table, Text, UnstyledButton } from "@mantine/core";
import { useTranslation } from "react-i18next";
import type { LinkStats } from "../../api/client";
import { isFilterName, type FilterName, type StatsFilter } from "../../lib/statsFilter";
import { breakdownNames, breakdownRows, countryName, unknownLabelKey, type BreakdownName } from "../../lib/statsView";

/**
 * The breakdowns' cards; variants only for a link that has (or had) them, a campaign's once a
 * visit named one. With onPick, a known value of a breakdown not filtered yet is a button that
 * filters by it.
 */
export function Breakdowns({
  stats,
  hasVariants,
  testId = "breakdowns",
  filter = {},
  onPick,
}: {
  stats: Pick<LinkStats, "breakdowns" | "visits">;
  hasVariants: boolean;
  testId?: string;
  filter?: StatsFilter;
  onPick?: (name: FilterName, value: string) => void;
}) {
  const { t, i18n } = useTranslation();
  const lang = i18n.resolvedLanguage;
  const fmt = new Intl.NumberFormat(lang);
  // Variants only for a link that has (or had) them; a campaign's breakdowns once a visit named one.
  const names = breakdownNames.filter((n) =>
    n === "variant" ? hasVariants || stats.breakdowns.variant.length > 0 : !n.startsWith("utm_") || (stats.breakdowns[n]?.length ?? 0) > 0,
  );
  const label = (name: BreakdownName, key: string) =>
    name === "device" ? t(`stats.devices.${key}`, { defaultValue: key }) : name === "country" ? countryName(key, lang) : key;
  return (
    <div className="cards-grid" data-testid={testId}>
      {names.map((name) => {
        const rows = breakdownRows(stats.breakdowns[name], stats.visits);
        return (
          <Card withBorder key={name} padding="sm" data-testid={`breakdown-${name}`}>
            <Text fw={600} mb="xs" component="h3" size="sm">
              {t(`stats.by.${name}`)}
            </Text>
            {rows.length === 0 ? (
              <Text size="sm" c="dimmed">
                {t("stats.none")}
              </Text>
            ) : (
              <Table verticalSpacing={4} aria-label={t(`stats.by.${name}`)}>
                <Table.Tbody>
                  {rows.map((r) => (
                    <Table.Tr key={r.key}>
                      <Table.Td className="break">
                        {onPick && !r.unknown && isFilterName(name) && filter[name] === undefined ? (
                          <UnstyledButton
                            className="breakdown-pick"
                            onClick={() => onPick(name, r.key)}
                            title={t("stats.filter.by", { value: label(name, r.key) })}
                            data-testid={`pick-${name}`}
                          >
                            <Text size="sm">{label(name, r.key)}</Text>
                          </UnstyledButton>
                        ) : (
                          <Text size="sm" c={r.unknown ? "dimmed" : undefined} fs={r.unknown ? "italic" : undefined}>
                            {r.unknown ? t(unknownLabelKey(name)) : label(name, r.key)}
                          </Text>
                        )}
                        <Progress value={r.percent} size="xs" mt={2} aria-hidden />
                      </Table.Td>
                      <Table.Td ta="right" w={60}>
                        <Text size="sm">{fmt.format(r.visits)}</Text>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            )}
          </Card>
        );
      })}
    </div>
  );
}
