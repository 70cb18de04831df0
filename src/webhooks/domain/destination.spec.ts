import { embeddedIPv4Hosts, NON_PUBLIC_IPV4 } from '../../../test/setup/address-forms';
import { hostOf, isPublicAddress, urlProblem } from './destination';

describe('isPublicAddress', () => {
  it.each([
    '127.0.0.1',
    '10.1.2.3',
    '172.16.0.1',
    '192.168.1.1',
    '169.254.169.254',
    '100.100.100.200',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '::1',
    '::',
    'fe80::1',
    'fd00:ec2::254',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
    'not an address',
  ])('refuses %s', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each(
    NON_PUBLIC_IPV4.flatMap(([what, ipv4]) =>
      embeddedIPv4Hosts(ipv4).map(([form, host]) => [`${what}, ${form}`, host]),
    ),
  )('refuses %s: %s', (_, host) => {
    expect(isPublicAddress(hostOf(new URL(`http://${host}/`)))).toBe(false);
  });

  it.each(['64:ff9b::808:808', '2002:808:808::1', '2001:0:4136:e378:8000:63bf:f7f7:f7f7'])(
    'refuses a transition address whatever it carries: %s',
    (address) => {
      expect(isPublicAddress(address)).toBe(false);
    },
  );

  it.each([
    '93.184.216.34',
    '8.8.8.8',
    '2606:4700:4700::1111',
    '::ffff:8.8.8.8',
    // IPv4-compatible: judged by the public address it carries.
    '::808:808',
  ])('accepts %s', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });
});

describe('urlProblem', () => {
  it('accepts http and https URLs', () => {
    expect(urlProblem('https://hooks.example.com/in?x=1')).toBeNull();
    expect(urlProblem('http://[2606:4700::1]:8080/')).toBeNull();
  });

  it.each([
    'ftp://example.com/',
    'example.com',
    '',
    'https://user:pw@example.com/',
    'file:///etc/passwd',
  ])('refuses %s', (url) => {
    expect(urlProblem(url)).not.toBeNull();
  });
});
