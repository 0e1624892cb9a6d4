// A world map of a link's visits per country (a choropleth), loaded only by the pages that show
// it. Shapes: Natural Earth's 1:110m countries (public domain) as world-atlas packs them (ISC),
// keyed by ISO 3166-1 numeric codes; the API's alpha-2 codes are matched to them through the
// table of i18n-iso-countries (MIT). The country table beside it says the same in text. With
// onPick, a country with visits is a button (a name, Tab and Enter) that filters the page by it,
// as the country table's rows do.
import { Card, Text } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { geoEqualEarth, geoPath } from "d3-geo";
import type { Feature, Geometry } from "geojson";
import codes from "i18n-iso-countries/codes.json";
import { useId, useMemo, type KeyboardEvent } from "react";
import { useTranslation } from "react-i18next";
import { feature } from "topojson-client";
import type { GeometryCollection, Topology } from "topojson-specification";
// The shapes are data, fetched as a file (cached for good, like every hashed asset), not script.
import worldUrl from "world-atlas/countries-110m.json?url";
import { mapShade } from "../lib/countryMap";
import { countryName } from "../lib/statsView";
import { Loading } from "./states";

const width = 960;
const height = 470;

/** ISO 3166-1 numeric code → alpha-2 code. */
const alpha2 = new Map<string, string>((codes as string[][]).map((c) => [c[2] ?? "", c[0] ?? ""]));

interface Shape {
  code: string; // alpha-2, "" when the shape has none (disputed areas)
  d: string;
}

async function worldShapes(): Promise<Shape[]> {
  const res = await fetch(worldUrl);
  if (!res.ok) throw new Error(`world map: ${res.status}`);
  const topo = (await res.json()) as Topology<{ countries: GeometryCollection }>;
  const fc = feature(topo, topo.objects.countries) as unknown as { features: Feature<Geometry>[] };
  const path = geoPath(geoEqualEarth().fitExtent([[4, 4], [width - 4, height - 4]], { type: "Sphere" }));
  return fc.features
    .filter((f) => f.id !== "010") // Antarctica: nobody visits from it, and it takes a fifth of the map
    .map((f) => ({ code: alpha2.get(String(f.id ?? "")) ?? "", d: path(f) ?? "" }));
}

export default function CountryMap({
  counts,
  selected,
  onPick,
}: {
  counts: { key: string; visits: number }[];
  /** The country the page is filtered by: no country is a button then. */
  selected?: string;
  onPick?: (country: string) => void;
}) {
  const { t, i18n } = useTranslation();
  const titleId = useId();
  const descId = useId();
  const lang = i18n.resolvedLanguage;
  const shapes = useQuery({ queryKey: ["world-shapes"], queryFn: worldShapes, staleTime: Infinity, gcTime: Infinity });
  const byCode = useMemo(() => new Map(counts.map((c) => [c.key, c.visits])), [counts]);
  const max = Math.max(0, ...counts.map((c) => c.visits));
  const fmt = new Intl.NumberFormat(lang);
  const pickable = !!onPick && selected === undefined && counts.some((c) => c.key !== "" && c.visits > 0);
  const summary = counts
    .slice(0, 10)
    .map((c) => `${countryName(c.key, lang)} ${fmt.format(c.visits)}`)
    .join(", ");
  return (
    <Card withBorder data-testid="country-map">
      <Text fw={600} mb="xs">
        {t("stats.map.title")}
      </Text>
      <svg
        viewBox={`0 0 ${width} ${height}`}
        className="country-map"
        role={pickable ? "group" : "img"}
        aria-labelledby={titleId}
        aria-describedby={descId}
      >
        <title id={titleId}>{t("stats.map.name")}</title>
        <desc id={descId}>{summary ? t("stats.map.desc", { countries: summary }) : t("stats.map.empty")}</desc>
        {shapes.data?.map((s, i) => {
          const v = byCode.get(s.code) ?? 0;
          const name = countryName(s.code, lang);
          const pick =
            pickable && s.code && v > 0
              ? {
                  role: "button",
                  tabIndex: 0,
                  "aria-label": t("stats.map.pick", { count: v, n: fmt.format(v), country: name }),
                  "data-testid": `map-pick-${s.code}`,
                  onClick: () => onPick?.(s.code),
                  onKeyDown: (e: KeyboardEvent<SVGPathElement>) => {
                    if (e.key === "Enter" || e.key === " ") {
                      e.preventDefault();
                      onPick?.(s.code);
                    }
                  },
                }
              : {};
          return (
            <path key={i} d={s.d} className={`map-q${mapShade(v, max)}`} {...pick}>
              {s.code && (
                <title>
                  {name}: {t("stats.map.visits", { count: v, n: fmt.format(v) })}
                </title>
              )}
            </path>
          );
        })}
      </svg>
      {shapes.isPending && <Loading />}
      {pickable && (
        <Text size="xs" c="dimmed" mt={4}>
          {t("stats.map.hint")}
        </Text>
      )}
    </Card>
  );
}
