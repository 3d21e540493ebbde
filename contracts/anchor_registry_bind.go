// Code generated - DO NOT EDIT.
// This file is a generated binding and any manual changes will be lost.

package contracts

import (
	"context"
	"errors"
	"math/big"
	"strings"
	"time"

	ethereum "github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/accounts/abi/bind"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/event"
)

// Reference imports to suppress errors if they are not otherwise used.
var (
	_ = errors.New
	_ = big.NewInt
	_ = strings.NewReader
	_ = ethereum.NotFound
	_ = bind.Bind
	_ = common.Big1
	_ = types.BloomLookup
	_ = event.NewSubscription
	_ = abi.ConvertType
	_ = time.Tick
	_ = context.Background
)

// AnchorRegistryMetaData contains all meta data concerning the AnchorRegistry contract.
var AnchorRegistryMetaData = &bind.MetaData{
	ABI: "[{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"bytes32\",\"name\":\"root\",\"type\":\"bytes32\"},{\"indexed\":false,\"internalType\":\"string\",\"name\":\"uri\",\"type\":\"string\"},{\"indexed\":true,\"internalType\":\"uint32\",\"name\":\"schemaVersion\",\"type\":\"uint32\"},{\"indexed\":true,\"internalType\":\"bytes32\",\"name\":\"salt\",\"type\":\"bytes32\"}],\"name\":\"AnchorPosted\",\"type\":\"event\"},{\"inputs\":[{\"internalType\":\"bytes32\",\"name\":\"root\",\"type\":\"bytes32\"},{\"internalType\":\"string\",\"name\":\"uri\",\"type\":\"string\"},{\"internalType\":\"uint32\",\"name\":\"schemaVersion\",\"type\":\"uint32\"},{\"internalType\":\"bytes32\",\"name\":\"salt\",\"type\":\"bytes32\"}],\"name\":\"postAnchor\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"}]",
	Bin: "0x6080604052348015600e575f5ffd5b506101888061001c5f395ff3fe608060405234801561000f575f5ffd5b5060043610610029575f3560e01c8063ba4322bd1461002d575b5f5ffd5b61004061003b36600461008b565b610042565b005b808263ffffffff16867fcbf23e9aa331806d2ce554b30b0a28ce4c4c79e5dad18f3c1879e50953f1e431878760405161007c929190610124565b60405180910390a45050505050565b5f5f5f5f5f6080868803121561009f575f5ffd5b85359450602086013567ffffffffffffffff8111156100bc575f5ffd5b8601601f810188136100cc575f5ffd5b803567ffffffffffffffff8111156100e2575f5ffd5b8860208284010111156100f3575f5ffd5b60209190910194509250604086013563ffffffff81168114610113575f5ffd5b949793965091946060013592915050565b60208152816020820152818360408301375f818301604090810191909152601f909201601f1916010191905056fea26469706673582212201e61c35db1dc123824d36ee1c2b73458f9846a05e90a2d4daaccf5a04f8ab9da64736f6c634300081c0033",
}

// AnchorRegistryABI is the input ABI used to generate the binding from.
// Deprecated: Use AnchorRegistryMetaData.ABI instead.
var AnchorRegistryABI = AnchorRegistryMetaData.ABI

// AnchorRegistryBin is the compiled bytecode used for deploying new contracts.
// Deprecated: Use AnchorRegistryMetaData.Bin instead.
var AnchorRegistryBin = AnchorRegistryMetaData.Bin

// DeployAnchorRegistry deploys a new Ethereum contract, binding an instance of AnchorRegistry to it.
func DeployAnchorRegistry(auth *bind.TransactOpts, backend bind.ContractBackend) (common.Address, *types.Transaction, *AnchorRegistry, error) {
	parsed, err := AnchorRegistryMetaData.GetAbi()
	if err != nil {
		return common.Address{}, nil, nil, err
	}
	if parsed == nil {
		return common.Address{}, nil, nil, errors.New("GetABI returned nil")
	}

	address, tx, contract, err := bind.DeployContract(auth, *parsed, common.FromHex(AnchorRegistryBin), backend)
	if err != nil {
		return common.Address{}, nil, nil, err
	}
	return address, tx, &AnchorRegistry{AnchorRegistryCaller: AnchorRegistryCaller{contract: contract}, AnchorRegistryTransactor: AnchorRegistryTransactor{contract: contract}, AnchorRegistryFilterer: AnchorRegistryFilterer{contract: contract}}, nil
}

// AnchorRegistry is an auto generated Go binding around an Ethereum contract.
type AnchorRegistry struct {
	AnchorRegistryCaller     // Read-only binding to the contract
	AnchorRegistryTransactor // Write-only binding to the contract
	AnchorRegistryFilterer   // Log filterer for contract events
}

// AnchorRegistryCaller is an auto generated read-only Go binding around an Ethereum contract.
type AnchorRegistryCaller struct {
	contract *bind.BoundContract // Generic contract wrapper for the low level calls
}

// AnchorRegistryTransactor is an auto generated write-only Go binding around an Ethereum contract.
type AnchorRegistryTransactor struct {
	contract *bind.BoundContract // Generic contract wrapper for the low level calls
}

// AnchorRegistryFilterer is an auto generated log filtering Go binding around an Ethereum contract events.
type AnchorRegistryFilterer struct {
	contract *bind.BoundContract // Generic contract wrapper for the low level calls
}

// AnchorRegistrySession is an auto generated Go binding around an Ethereum contract,
// with pre-set call and transact options.
type AnchorRegistrySession struct {
	Contract     *AnchorRegistry   // Generic contract binding to set the session for
	CallOpts     bind.CallOpts     // Call options to use throughout this session
	TransactOpts bind.TransactOpts // Transaction auth options to use throughout this session
}

// AnchorRegistryCallerSession is an auto generated read-only Go binding around an Ethereum contract,
// with pre-set call options.
type AnchorRegistryCallerSession struct {
	Contract *AnchorRegistryCaller // Generic contract caller binding to set the session for
	CallOpts bind.CallOpts         // Call options to use throughout this session
}

// AnchorRegistryTransactorSession is an auto generated write-only Go binding around an Ethereum contract,
// with pre-set transact options.
type AnchorRegistryTransactorSession struct {
	Contract     *AnchorRegistryTransactor // Generic contract transactor binding to set the session for
	TransactOpts bind.TransactOpts         // Transaction auth options to use throughout this session
}

// AnchorRegistryRaw is an auto generated low-level Go binding around an Ethereum contract.
type AnchorRegistryRaw struct {
	Contract *AnchorRegistry // Generic contract binding to access the raw methods on
}

// AnchorRegistryCallerRaw is an auto generated low-level read-only Go binding around an Ethereum contract.
type AnchorRegistryCallerRaw struct {
	Contract *AnchorRegistryCaller // Generic read-only contract binding to access the raw methods on
}

// AnchorRegistryTransactorRaw is an auto generated low-level write-only Go binding around an Ethereum contract.
type AnchorRegistryTransactorRaw struct {
	Contract *AnchorRegistryTransactor // Generic write-only contract binding to access the raw methods on
}

// NewAnchorRegistry creates a new instance of AnchorRegistry, bound to a specific deployed contract.
func NewAnchorRegistry(address common.Address, backend bind.ContractBackend) (*AnchorRegistry, error) {
	contract, err := bindAnchorRegistry(address, backend, backend, backend)
	if err != nil {
		return nil, err
	}
	return &AnchorRegistry{AnchorRegistryCaller: AnchorRegistryCaller{contract: contract}, AnchorRegistryTransactor: AnchorRegistryTransactor{contract: contract}, AnchorRegistryFilterer: AnchorRegistryFilterer{contract: contract}}, nil
}

// NewAnchorRegistryCaller creates a new read-only instance of AnchorRegistry, bound to a specific deployed contract.
func NewAnchorRegistryCaller(address common.Address, caller bind.ContractCaller) (*AnchorRegistryCaller, error) {
	contract, err := bindAnchorRegistry(address, caller, nil, nil)
	if err != nil {
		return nil, err
	}
	return &AnchorRegistryCaller{contract: contract}, nil
}

// NewAnchorRegistryTransactor creates a new write-only instance of AnchorRegistry, bound to a specific deployed contract.
func NewAnchorRegistryTransactor(address common.Address, transactor bind.ContractTransactor) (*AnchorRegistryTransactor, error) {
	contract, err := bindAnchorRegistry(address, nil, transactor, nil)
	if err != nil {
		return nil, err
	}
	return &AnchorRegistryTransactor{contract: contract}, nil
}

// NewAnchorRegistryFilterer creates a new log filterer instance of AnchorRegistry, bound to a specific deployed contract.
func NewAnchorRegistryFilterer(address common.Address, filterer bind.ContractFilterer) (*AnchorRegistryFilterer, error) {
	contract, err := bindAnchorRegistry(address, nil, nil, filterer)
	if err != nil {
		return nil, err
	}
	return &AnchorRegistryFilterer{contract: contract}, nil
}

// bindAnchorRegistry binds a generic wrapper to an already deployed contract.
func bindAnchorRegistry(address common.Address, caller bind.ContractCaller, transactor bind.ContractTransactor, filterer bind.ContractFilterer) (*bind.BoundContract, error) {
	parsed, err := AnchorRegistryMetaData.GetAbi()
	if err != nil {
		return nil, err
	}
	return bind.NewBoundContract(address, *parsed, caller, transactor, filterer), nil
}

// Call invokes the (constant) contract method with params as input values and
// sets the output to result. The result type might be a single field for simple
// returns, a slice of interfaces for anonymous returns and a struct for named
// returns.
func (_AnchorRegistry *AnchorRegistryRaw) Call(opts *bind.CallOpts, result *[]interface{}, method string, params ...interface{}) error {
	return _AnchorRegistry.Contract.AnchorRegistryCaller.contract.Call(opts, result, method, params...)
}

// Transfer initiates a plain transaction to move funds to the contract, calling
// its default method if one is available.
func (_AnchorRegistry *AnchorRegistryRaw) Transfer(opts *bind.TransactOpts) (*types.Transaction, error) {
	return _AnchorRegistry.Contract.AnchorRegistryTransactor.contract.Transfer(opts)
}

// Transact invokes the (paid) contract method with params as input values.
func (_AnchorRegistry *AnchorRegistryRaw) Transact(opts *bind.TransactOpts, method string, params ...interface{}) (*types.Transaction, error) {
	return _AnchorRegistry.Contract.AnchorRegistryTransactor.contract.Transact(opts, method, params...)
}

// Call invokes the (constant) contract method with params as input values and
// sets the output to result. The result type might be a single field for simple
// returns, a slice of interfaces for anonymous returns and a struct for named
// returns.
func (_AnchorRegistry *AnchorRegistryCallerRaw) Call(opts *bind.CallOpts, result *[]interface{}, method string, params ...interface{}) error {
	return _AnchorRegistry.Contract.contract.Call(opts, result, method, params...)
}

// Transfer initiates a plain transaction to move funds to the contract, calling
// its default method if one is available.
func (_AnchorRegistry *AnchorRegistryTransactorRaw) Transfer(opts *bind.TransactOpts) (*types.Transaction, error) {
	return _AnchorRegistry.Contract.contract.Transfer(opts)
}

// Transact invokes the (paid) contract method with params as input values.
func (_AnchorRegistry *AnchorRegistryTransactorRaw) Transact(opts *bind.TransactOpts, method string, params ...interface{}) (*types.Transaction, error) {
	return _AnchorRegistry.Contract.contract.Transact(opts, method, params...)
}

// PostAnchor is a paid mutator transaction binding the contract method 0xba4322bd.
//
// Solidity: function postAnchor(bytes32 root, string uri, uint32 schemaVersion, bytes32 salt) returns()
func (_AnchorRegistry *AnchorRegistryTransactor) PostAnchor(opts *bind.TransactOpts, root [32]byte, uri string, schemaVersion uint32, salt [32]byte) (*types.Transaction, error) {
	return _AnchorRegistry.contract.Transact(opts, "postAnchor", root, uri, schemaVersion, salt)
}

// PostAnchor is a paid mutator transaction binding the contract method 0xba4322bd.
//
// Solidity: function postAnchor(bytes32 root, string uri, uint32 schemaVersion, bytes32 salt) returns()
func (_AnchorRegistry *AnchorRegistrySession) PostAnchor(root [32]byte, uri string, schemaVersion uint32, salt [32]byte) (*types.Transaction, error) {
	return _AnchorRegistry.Contract.PostAnchor(&_AnchorRegistry.TransactOpts, root, uri, schemaVersion, salt)
}

// PostAnchor is a paid mutator transaction binding the contract method 0xba4322bd.
//
// Solidity: function postAnchor(bytes32 root, string uri, uint32 schemaVersion, bytes32 salt) returns()
func (_AnchorRegistry *AnchorRegistryTransactorSession) PostAnchor(root [32]byte, uri string, schemaVersion uint32, salt [32]byte) (*types.Transaction, error) {
	return _AnchorRegistry.Contract.PostAnchor(&_AnchorRegistry.TransactOpts, root, uri, schemaVersion, salt)
}

// AnchorRegistryAnchorPostedIterator is returned from FilterAnchorPosted and is used to iterate over the raw logs and unpacked data for AnchorPosted events raised by the AnchorRegistry contract.
type AnchorRegistryAnchorPostedIterator struct {
	Event *AnchorRegistryAnchorPosted // Event containing the contract specifics and raw log

	contract *bind.BoundContract // Generic contract to use for unpacking event data
	event    string              // Event name to use for unpacking event data

	logs chan types.Log        // Log channel receiving the found contract events
	sub  ethereum.Subscription // Subscription for errors, completion and termination
	done bool                  // Whether the subscription completed delivering logs
	fail error                 // Occurred error to stop iteration
}

// Next advances the iterator to the subsequent event, returning whether there
// are any more events found. In case of a retrieval or parsing error, false is
// returned and Error() can be queried for the exact failure.
func (it *AnchorRegistryAnchorPostedIterator) Next() bool {
	// If the iterator failed, stop iterating
	if it.fail != nil {
		return false
	}
	// If the iterator completed, deliver directly whatever's available
	if it.done {
		select {
		case log := <-it.logs:
			it.Event = new(AnchorRegistryAnchorPosted)
			if err := it.contract.UnpackLog(it.Event, it.event, log); err != nil {
				it.fail = err
				return false
			}
			it.Event.Raw = log
			return true

		default:
			return false
		}
	}
	// Iterator still in progress, wait for either a data or an error event
	select {
	case log := <-it.logs:
		it.Event = new(AnchorRegistryAnchorPosted)
		if err := it.contract.UnpackLog(it.Event, it.event, log); err != nil {
			it.fail = err
			return false
		}
		it.Event.Raw = log
		return true

	case err := <-it.sub.Err():
		it.done = true
		it.fail = err
		return it.Next()
	}
}

// Error returns any retrieval or parsing error occurred during filtering.
func (it *AnchorRegistryAnchorPostedIterator) Error() error {
	return it.fail
}

// Close terminates the iteration process, releasing any pending underlying
// resources.
func (it *AnchorRegistryAnchorPostedIterator) Close() error {
	it.sub.Unsubscribe()
	return nil
}

// AnchorRegistryAnchorPosted represents a AnchorPosted event raised by the AnchorRegistry contract.
type AnchorRegistryAnchorPosted struct {
	Root          [32]byte
	Uri           string
	SchemaVersion uint32
	Salt          [32]byte
	Raw           types.Log // Blockchain specific contextual infos
}

// FilterAnchorPosted is a free log retrieval operation binding the contract event 0xcbf23e9aa331806d2ce554b30b0a28ce4c4c79e5dad18f3c1879e50953f1e431.
//
// Solidity: event AnchorPosted(bytes32 indexed root, string uri, uint32 indexed schemaVersion, bytes32 indexed salt)
func (_AnchorRegistry *AnchorRegistryFilterer) FilterAnchorPosted(opts *bind.FilterOpts, root [][32]byte, schemaVersion []uint32, salt [][32]byte) (*AnchorRegistryAnchorPostedIterator, error) {

	var rootRule []interface{}
	for _, rootItem := range root {
		rootRule = append(rootRule, rootItem)
	}

	var schemaVersionRule []interface{}
	for _, schemaVersionItem := range schemaVersion {
		schemaVersionRule = append(schemaVersionRule, schemaVersionItem)
	}
	var saltRule []interface{}
	for _, saltItem := range salt {
		saltRule = append(saltRule, saltItem)
	}

	logs, sub, err := _AnchorRegistry.contract.FilterLogs(opts, "AnchorPosted", rootRule, schemaVersionRule, saltRule)
	if err != nil {
		return nil, err
	}
	return &AnchorRegistryAnchorPostedIterator{contract: _AnchorRegistry.contract, event: "AnchorPosted", logs: logs, sub: sub}, nil
}

// WatchAnchorPosted is a free log subscription operation binding the contract event 0xcbf23e9aa331806d2ce554b30b0a28ce4c4c79e5dad18f3c1879e50953f1e431.
//
// Solidity: event AnchorPosted(bytes32 indexed root, string uri, uint32 indexed schemaVersion, bytes32 indexed salt)
func (_AnchorRegistry *AnchorRegistryFilterer) WatchAnchorPosted(opts *bind.WatchOpts, sink chan<- *AnchorRegistryAnchorPosted, root [][32]byte, schemaVersion []uint32, salt [][32]byte) (event.Subscription, error) {

	var rootRule []interface{}
	for _, rootItem := range root {
		rootRule = append(rootRule, rootItem)
	}

	var schemaVersionRule []interface{}
	for _, schemaVersionItem := range schemaVersion {
		schemaVersionRule = append(schemaVersionRule, schemaVersionItem)
	}
	var saltRule []interface{}
	for _, saltItem := range salt {
		saltRule = append(saltRule, saltItem)
	}

	logs, sub, err := _AnchorRegistry.contract.WatchLogs(opts, "AnchorPosted", rootRule, schemaVersionRule, saltRule)
	if err != nil {
		return nil, err
	}
	return event.NewSubscription(func(quit <-chan struct{}) error {
		defer sub.Unsubscribe()
		for {
			select {
			case log := <-logs:
				// New log arrived, parse the event and forward to the user
				event := new(AnchorRegistryAnchorPosted)
				if err := _AnchorRegistry.contract.UnpackLog(event, "AnchorPosted", log); err != nil {
					// If the signature doesn't match, skip this log.
					if errors.Is(err, bind.ErrEventSignatureMismatch) {
						continue
					}
					return err
				}
				event.Raw = log

				select {
				case sink <- event:
				case err := <-sub.Err():
					return err
				case <-quit:
					return nil
				}
			case err := <-sub.Err():
				return err
			case <-quit:
				return nil
			}
		}
	}), nil
}

// ParseAnchorPosted is a log parse operation binding the contract event 0xcbf23e9aa331806d2ce554b30b0a28ce4c4c79e5dad18f3c1879e50953f1e431.
//
// Solidity: event AnchorPosted(bytes32 indexed root, string uri, uint32 indexed schemaVersion, bytes32 indexed salt)
func (_AnchorRegistry *AnchorRegistryFilterer) ParseAnchorPosted(log types.Log) (*AnchorRegistryAnchorPosted, error) {
	event := new(AnchorRegistryAnchorPosted)
	if err := _AnchorRegistry.contract.UnpackLog(event, "AnchorPosted", log); err != nil {
		return nil, err
	}
	event.Raw = log
	return event, nil
}
