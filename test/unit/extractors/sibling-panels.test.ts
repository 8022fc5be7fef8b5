import { extract } from '../../../src/extractors/text-density';

describe('the other panels of a tab strip the content reads from are the content too (sibling-panels.ts)', () => {
  const panel = (id: string, shown: boolean, inner: string): string =>
    `<div class="tabbedWidget cpTabPanel" role="tabpanel" id="${id}"${shown ? '' : ' style="display: none;"'}><div class="widget editor">${inner}</div></div>`;
  const forms = ['Complaint Form - PDF Fill in', 'Complaint Form - Printable PDF', 'Excavation Permit - PDF Fill-in',
    'General Contractor and Sub-Contractors List PDF Fill-in', 'New Business Determination Form PDF Fill-in',
    'Temporary Pool Registration - PDF Fill in', 'Temporary Pool Registration - Printable PDF', 'Temporary Use Permit - PDF Fill in',
    'Temporary Use Permit - Printable PDF', 'Storage Container Permit - Printable', 'Storage Container Permit - PDF Fill-in',
    "Contractor's License - PDF Fill-in", 'License To Do Business - PDF Fill-in'];
  const faqs = ['How do I know if I need a permit?', 'Do I need a permit for a swimming pool?', 'Where on my property can I place a pool?',
    'Do I have to fence in my yard when I put up a pool?', 'How long do I have to start work after I obtain a permit?',
    'Where on my property can I place a shed?', 'How do I file a complaint?', 'Can I have a storage container on my property?'];
  const page = (tabs: string): string => `<html><head><title>Building Department</title></head><body>
    <nav><ul><li><a href="/">Home</a></li><li><a href="/departments">Departments</a></li></ul></nav>
    <main><h1>Building Department</h1>${tabs}</main>
    <footer><p>Town Hall, 1240 Main Street. Open Monday to Friday, 8 am to 4 pm.</p></footer></body></html>`;

  it("reads a department's forms and questions from the tabs beside its information", () => {
    const tabs = `<div class="widget widgetTabbed" role="tablist"><ul class="tabs"><li><a href="#t1">Information</a></li><li><a href="#t2">Forms</a></li><li><a href="#t3">FAQs</a></li></ul>
      <div class="cpTabPanels">
      ${panel('t1', true, `<h2>2020 Indiana Residential Building Code has been amended</h2>
        <p>The 2020 Residential Building Code went into effect January 1, 2020. It includes numerous changes pertaining to new residential construction. For more information, please contact our office.</p>
        <p>Building permits are required for new construction, additions, decks, pools, sheds and fences. Applications are reviewed within ten working days of a complete submission.</p>`)}
      ${panel('t2', false, `<ul>${forms.map((f, i) => `<li><a href="/DocumentCenter/View/${i}">${f}</a></li>`).join('')}</ul>`)}
      ${panel('t3', false, `<ul>${faqs.map((f, i) => `<li><a href="/FAQ.aspx?QID=${i}">${f}</a></li>`).join('')}</ul>`)}
      </div></div>`;
    const text = extract(page(tabs)).text;
    expect(text).toContain('went into effect January 1, 2020');
    expect(text).toContain('Complaint Form - PDF Fill in');
    expect(text).toContain('Storage Container Permit - Printable');
    expect(text).toContain('Do I need a permit for a swimming pool?');
  });

  it('leaves out a "Learn more" link of its own line in a sibling panel, and panels of another widget', () => {
    const tabs = `<div class="cpTabPanels">
      ${panel('t1', true, `<p>The 2020 Residential Building Code went into effect January 1, 2020. It includes numerous changes pertaining to new residential construction. For more information, please contact our office.</p>
        <p>Building permits are required for new construction, additions, decks, pools, sheds and fences. Applications are reviewed within ten working days of a complete submission.</p>`)}
      ${panel('t2', false, '<p><a href="/inspections">Learn more about inspections</a></p>')}
      </div>
      <div class="promo"><div class="accordion"><div class="accordion-item"><ul><li><a href="/news/1">Town fair returns this summer</a></li></ul></div></div></div>`;
    const text = extract(page(tabs)).text;
    expect(text).toContain('went into effect January 1, 2020');
    expect(text).not.toContain('Learn more about inspections');
    expect(text).not.toContain('Town fair returns');
  });

  it("reads the folded answers of an accordion that the content reads from", () => {
    const agencies = ['Rebuilding Together Austin (512) 993-8230', 'Meals on Wheels and More (512) 476-6325',
      'Interfaith Action of Central Texas (512) 386-9145', 'Easter Seals Central Texas (512) 710-6044', 'Austin Area Urban League (512) 478-7176'];
    const text = extract(`<html><head><title>GO REPAIR! Grant Program</title></head><body><main><h1>GO REPAIR! Grant Program</h1>
      <div class="field field--name-body">
      <p>GO REPAIR! addresses substandard housing conditions to make safe and barrier-free homes. Low-income families struggling to make required home repairs may be eligible. Grants are up to $20,000 to fix structural issues for homeowners.</p>
      <dl class="ckeditor-accordion"><dt>Who is eligible?</dt><dd><p>Homeowners whose household income is at or below 80 percent of the median family income, who live in the home and whose property taxes are current, may apply for a grant under the program.</p></dd>
      <dt>Partner agencies</dt><dd><ul>${agencies.map((a, i) => `<li><a href="https://example.org/${i}">${a}</a></li>`).join('')}</ul></dd></dl>
      </div></main><footer><p>City of Austin</p></footer></body></html>`).text;
    expect(text).toContain('Homeowners whose household income');
    expect(text).toContain('Meals on Wheels and More (512) 476-6325');
  });

  it("takes no page-wide class word (<body class=\"auto-collapse\">) for a panel", () => {
    const text = extract(`<html><head><title>Browns defender on the fight</title></head><body class="skybox-auto-collapse">
      <div class="brands"><ul><li><a href="/a">CBSSports.com</a></li><li><a href="/b">247Sports</a></li><li><a href="/c">MaxPreps</a></li><li><a href="/d">SportsLine</a></li></ul></div>
      <div class="page"><article><h1>Browns defender on the fight</h1>
      <p>One member of the Browns' defense did not hold back on Monday when he was asked about Thursday night's fight, which ended with three players ejected and a long suspension.</p>
      <p>"I like the fact that we lost to them, so we get another shot to play them. I don't care who we lose to, if they're in our division, we get our shot," he said.</p></article></div>
      </body></html>`).text;
    expect(text).toContain('did not hold back on Monday');
    expect(text).not.toContain('MaxPreps');
  });

  describe('hidden panes alike that hold the page between them (layout.ts, a home page of locations)', () => {
    const pane = (name: string, prose: string, hours: string): string => `<div class="location-block"><h3>${name}</h3><p>${hours}</p><a href="/${name}">More Info</a></div>
      <div class="hide hide@medium width--100"><div class="location--overlay-content"><h3>${name}</h3>
        <div class="row hide"><div class="gr-8">${prose}</div>
        <div class="gr-4"><span class="font--semibold">Booking Periods</span><p class="size--s1">${hours}</p></div></div></div></div>`;
    const home = (panes: string): string => `<html><head><title>Artists Markets | Home</title></head><body>
      <nav><ul><li><a href="/">Home</a></li><li><a href="/apply">Apply</a></li></ul></nav>
      <section><h2>Shop With Us</h2><div class="location-blocks">${panes}</div></section>
      <footer><p>Copyright 2024 Artists Markets</p></footer></body></html>`;
    const east = '<p>Setting up shop at our flagship location means spending the weekend connecting with established creatives and young tastemakers alike who flock to the north side.</p>';
    const west = `<p>Situated under the old railway, one of the most visited attractions in town, our market location captures the hustle and bustle of the most colorful marketplace around.</p>
      <p>If you have always wanted to sell at our market location, now is the time to dive in: week-long bookings, river views and the food that makes the market an icon.</p>`;

    it('reads every pane, not only the one that outweighs the rest', () => {
      const text = extract(home(pane('Eastside', east, 'Saturday-Sunday') + pane('Westside', west, 'Monday-Sunday'))).text;
      expect(text).toContain('Situated under the old railway');
      expect(text).toContain('Setting up shop at our flagship location');
      expect(text).toContain('Saturday-Sunday');
    });

    it('still drops hidden panes alike that hold little of the page (a pair of sign-in prompts)', () => {
      const prompt = '<div class="modal hide"><p>Sign in to save this market to your favourites.</p></div>';
      const text = extract(home(`<div class="location-block">${west}${east}</div>${prompt}${prompt}`)).text;
      expect(text).toContain('Situated under the old railway');
      expect(text).not.toContain('Sign in to save');
    });
  });
});
