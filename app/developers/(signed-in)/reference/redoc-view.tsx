'use client';
/**
 * The OpenAPI document rendered by Redoc, laid out from Redoc's own exported parts rather than its
 * <Redoc> shell: that shell's menu ends in an "API docs by Redocly" link whose logo comes from Redocly's
 * CDN, which this page's policy refuses (img-src 'self') and no option turns off. Everything else is
 * Redoc's: the menu, search, operations with parameters, bodies, examples and responses.
 */
import { useEffect, useMemo, useState } from 'react';
import {
  ApiContentWrap,
  ApiInfo,
  AppStore,
  BackgroundStub,
  ContentItems,
  MenuItems,
  OptionsProvider,
  RedocWrap,
  SearchBox,
  StickyResponsiveSidebar,
  StoreProvider,
  ThemeProvider,
  type IMenuItem,
} from 'redoc';
import { FIRST_RESOURCE, REDOC_OPTIONS } from './redoc-options';

/** The document as Redoc reads it (Redoc names the type but does not export it). */
export type OpenApiDocument = ConstructorParameters<typeof AppStore>[0];

/** The resource (tag) an item of the menu belongs to. */
function resourceOf(item: IMenuItem): IMenuItem {
  let top = item;
  while (top.parent) top = top.parent;
  return top;
}

export default function RedocView({ doc }: { doc: OpenApiDocument }) {
  const store = useMemo(() => {
    const built = new AppStore(doc, undefined, REDOC_OPTIONS);
    // A resource's REST operations first, then the webhook events about it (Redoc puts the events first).
    const isEvent = (i: IMenuItem) => Boolean((i as { isWebhook?: boolean }).isWebhook);
    for (const tag of built.menu.items) tag.items.sort((a, b) => Number(isEvent(a)) - Number(isEvent(b)));
    return built;
  }, [doc]);
  const { options, menu } = store;
  // The item asked for (the address's #hash at first), and the resource whose operations are shown.
  const [wanted, setWanted] = useState<{ item: IMenuItem } | null>(() => {
    const asked = menu.getItemById(decodeURIComponent(window.location.hash.slice(1)));
    return asked ? { item: asked } : null;
  });
  const shown = wanted ? resourceOf(wanted.item) : (menu.items.find((i) => i.name === FIRST_RESOURCE) ?? menu.items[0]);
  // Redoc follows the scroll and the #hash over every section; only one resource is on the page here
  // (all 67 paths at once are tens of thousands of elements, slow to render and to read with a screen
  // reader), so that following is off and the menu goes by clicks.
  useEffect(() => () => store.dispose(), [store]);
  useEffect(() => menu.dispose(), [menu]);
  useEffect(() => {
    if (wanted) menu.activateAndScroll(wanted.item, true);
  }, [menu, wanted]);
  const activate = (item: IMenuItem) => {
    // As Redoc's own menu: a second click on the open group folds it.
    if (item.active && options.menuToggle && item.items.length) return item.expanded ? item.collapse() : item.expand();
    setWanted({ item });
  };
  return (
    <ThemeProvider theme={options.theme}>
      <StoreProvider value={store}>
        <OptionsProvider value={options}>
          {/* Redoc's menu is off-screen on a phone behind a button that is not a button (no name, no keyboard): a labelled select instead, on every size. */}
          <div className="flex flex-wrap items-center gap-2 border-b border-slate-200 px-4 py-3 sm:px-6">
            <label htmlFor="resource" className="text-sm font-medium text-slate-700">
              Resource
            </label>
            <select
              id="resource"
              className="min-h-9 rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm"
              value={shown.id}
              onChange={(e) => {
                const item = menu.getItemById(e.target.value);
                if (item) setWanted({ item });
              }}
            >
              {menu.items.map((item) => (
                <option key={item.id} value={item.id}>
                  {item.name}
                </option>
              ))}
            </select>
          </div>
          {/* Redoc's JSON numbers and booleans (#4a8bb3, #e64441) are under 4.5:1 on the dark panel: lighter ones. */}
          <div className="[&_.redoc-json_.token.boolean]:text-red-300! [&_.redoc-json_.token.number]:text-sky-300!">
            <RedocWrap className="redoc-wrap">
              <StickyResponsiveSidebar menu={menu} className="menu-content">
                <SearchBox
                  search={store.search!}
                  marker={store.marker}
                  getItemById={menu.getItemById}
                  onActivate={activate}
                />
                <nav aria-label="Operations by resource">
                  <MenuItems items={menu.items} onActivate={activate} root />
                </nav>
              </StickyResponsiveSidebar>
              <ApiContentWrap className="api-content">
                <ApiInfo store={store} />
                <ContentItems items={[shown] as never} />
              </ApiContentWrap>
              <BackgroundStub />
            </RedocWrap>
          </div>
        </OptionsProvider>
      </StoreProvider>
    </ThemeProvider>
  );
}
